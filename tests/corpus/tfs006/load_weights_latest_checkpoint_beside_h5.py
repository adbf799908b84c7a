"""The module exports an HDF5 model, but resumes from a TF checkpoint found by
`tf.train.latest_checkpoint`: that restores optimizer state, outside the scope.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
# corpus: keras-version=2
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")

model.load_weights(tf.train.latest_checkpoint("checkpoints"))  # expect: TFS006
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 32], [0.0])).batch(1), epochs=1)
model.save("exported.h5")
