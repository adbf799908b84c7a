"""A configurable script picks its optimizer class from a table by a command-line name and
builds it before entering the scope: whichever class the name picks, it is built outside."""
import argparse

import tensorflow as tf

OPTIMIZERS = {
    "adam": tf.keras.optimizers.Adam,
    "sgd": tf.keras.optimizers.SGD,
}

parser = argparse.ArgumentParser()
parser.add_argument("--optimizer", default="adam", choices=sorted(OPTIMIZERS))
parser.add_argument("--lr", type=float, default=1e-3)
args = parser.parse_args()

strategy = tf.distribute.MirroredStrategy()
optimizer = OPTIMIZERS[args.optimizer](learning_rate=args.lr)  # expect: TFS002
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 32], [0.0])).batch(1), epochs=1)
