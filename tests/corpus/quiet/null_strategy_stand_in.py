"""A project's own null strategy on the one-device path (HugeCTR's `utils.NullStrategy`): on the
other path the real strategy's scope is entered, and everything is made inside it."""
import contextlib

import tensorflow as tf


class NullStrategy:
    num_replicas_in_sync = 1

    def scope(self):
        return contextlib.nullcontext()

    def run(self, fn, args=()):
        return fn(*args)


def main(num_gpus, dataset):
    if num_gpus > 1:
        strategy = tf.distribute.MirroredStrategy()
    else:
        strategy = NullStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
        optimizer = tf.keras.optimizers.Adam()
        auc = tf.keras.metrics.AUC()
        model.compile(optimizer=optimizer, loss="binary_crossentropy", metrics=[auc])
    model.fit(dataset, epochs=1)
