"""Resuming a subclassed ranking model built on a sample batch in the scope: its variables exist,
so the restore outside the scope creates the optimizer's slot variables there, under no strategy.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
import tensorflow as tf
from tensorflow import keras


class Ranker(keras.Model):
    def __init__(self, units):
        super().__init__()
        self.hidden = keras.layers.Dense(units, activation="relu")
        self.score = keras.layers.Dense(1)

    def call(self, inputs):
        return self.score(self.hidden(inputs))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Ranker(64)
    model(tf.zeros((1, 16)))
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)

latest = tf.train.latest_checkpoint("checkpoints")
if latest:
    checkpoint.restore(latest)  # expect: TFS006

with strategy.scope():
    model.fit(tf.random.normal((256, 16)), tf.random.normal((256, 1)), epochs=2)
checkpoint.save("checkpoints/ckpt")
