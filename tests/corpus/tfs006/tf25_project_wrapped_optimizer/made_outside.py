"""TensorFlow 2.5 (requirements.txt): the helper that wraps the optimizer runs before the scope,
so the OptimizerV2 it returns belongs to no strategy; restoring before `fit` makes its slots
under the default strategy for the model's mirrored variables, and TensorFlow raises."""
import tensorflow as tf
from embedding_lib import distributed_optimizer

optimizer = distributed_optimizer(tf.keras.optimizers.Adam())
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer, "binary_crossentropy")

model.load_weights("checkpoints/ckpt-3")  # expect: TFS006
model.fit(tf.data.Dataset.from_tensor_slices((tf.zeros((8, 16)), tf.zeros((8, 1)))).batch(4), epochs=1)
