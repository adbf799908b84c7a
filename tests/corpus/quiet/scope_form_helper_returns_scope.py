import contextlib

import tensorflow as tf
from tensorflow import keras


def get_strategy_scope(strategy):
    return strategy.scope() if strategy else contextlib.nullcontext()


strategy = tf.distribute.MirroredStrategy()

with get_strategy_scope(strategy):
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
