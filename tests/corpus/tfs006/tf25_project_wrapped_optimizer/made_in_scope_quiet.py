"""TensorFlow 2.5 (requirements.txt): the optimizer comes from a helper tfscope cannot see,
called in the scope, so it is an OptimizerV2 made under the strategy; its `add_slot` enters that
strategy, so `load_weights` outside the scope before `fit` makes the slots in the right place."""
import argparse

import tensorflow as tf
from embedding_lib import distributed_optimizer

parser = argparse.ArgumentParser()
parser.add_argument("--load", default="")
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    optimizer = distributed_optimizer(tf.keras.optimizers.Adam())
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer, "binary_crossentropy")

if args.load:
    model.load_weights(args.load)
model.fit(tf.data.Dataset.from_tensor_slices((tf.zeros((8, 16)), tf.zeros((8, 1)))).batch(4), epochs=1)
