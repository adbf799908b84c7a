import contextlib

import tensorflow as tf
from tensorflow import keras


@contextlib.contextmanager
def strategy_scope(strategy):
    if strategy is None:
        yield
    else:
        with strategy.scope():
            yield


strategy = tf.distribute.MirroredStrategy()

with strategy_scope(strategy):
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
