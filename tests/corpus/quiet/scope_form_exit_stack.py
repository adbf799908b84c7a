import contextlib

import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with contextlib.ExitStack() as stack:
    stack.enter_context(strategy.scope())
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
