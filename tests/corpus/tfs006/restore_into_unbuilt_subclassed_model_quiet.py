# Resuming a subclassed ranking model right after construction: it has no variable until its first
# call, so the restore outside the scope creates nothing; the values (and the optimizer's slots)
# are restored when `fit` creates the variables, under the strategy.
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
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)

latest = tf.train.latest_checkpoint("checkpoints")
if latest:
    checkpoint.restore(latest)

with strategy.scope():
    model.fit(tf.random.normal((256, 16)), tf.random.normal((256, 1)), epochs=2)
checkpoint.save("checkpoints/ckpt")
