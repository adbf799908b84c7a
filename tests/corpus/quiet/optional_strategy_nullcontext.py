import argparse
import contextlib

import tensorflow as tf
from tensorflow import keras

parser = argparse.ArgumentParser()
parser.add_argument("--num-gpus", type=int, default=0)
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy() if args.num_gpus > 1 else None
scope = strategy.scope() if strategy else contextlib.nullcontext()

with scope:
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()

if strategy is not None:
    with strategy.scope():
        model.compile(optimizer=optimizer, loss="mse")
else:
    model.compile(optimizer=optimizer, loss="mse")
