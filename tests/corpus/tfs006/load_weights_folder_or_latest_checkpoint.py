"""`resume_from` names a folder of TF checkpoints, so the `isdir` branch can run: the newest
checkpoint then restores optimizer state outside the scope, before any slot exists.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
# corpus: keras-version=2
import os

import tensorflow as tf

resume_from = os.path.join("runs", "baseline")
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss="mse")

if os.path.isdir(resume_from):
    resume_from = tf.train.latest_checkpoint(resume_from)
model.load_weights(resume_from)  # expect: TFS006
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 64], [0.0])).batch(1), epochs=1)
