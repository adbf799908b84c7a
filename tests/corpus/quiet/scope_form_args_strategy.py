import argparse

import tensorflow as tf
from tensorflow import keras


def build_and_compile(args: argparse.Namespace) -> keras.Model:
    with args.strategy.scope():
        model = keras.Sequential([keras.Input(shape=(args.features,)), keras.layers.Dense(1)])
        optimizer = keras.optimizers.Adam(args.learning_rate)
    with args.strategy.scope():
        model.compile(optimizer=optimizer, loss="mse")
    return model


args = argparse.Namespace(strategy=tf.distribute.MirroredStrategy(), features=8, learning_rate=1e-3)
model = build_and_compile(args)
model.fit(tf.random.normal((32, 8)), tf.random.normal((32, 1)), epochs=1)
