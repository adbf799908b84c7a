"""A weights path joined from a folder and a TF checkpoint prefix restores the optimizer's
state too: outside the scope and before any step, that creates its slots under the default
strategy.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
# corpus: keras-version=2
import os

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")

model.load_weights(os.path.join("checkpoints", "ckpt-12"))  # expect: TFS006
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 32], [0.0])).batch(1), epochs=1)
model.save("exported.h5")
