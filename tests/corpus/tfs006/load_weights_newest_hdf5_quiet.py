"""Resuming from the newest of the HDF5 weights files the ModelCheckpoint callback writes: the
path is computed, but every weights file this module names is HDF5, which holds layer weights
only, so loading it outside the scope creates no optimizer variable."""
# corpus: keras-version=2
import os

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def build_and_compile():
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
    return model


def resume(model, output_dir):
    checkpoints = [name for name in os.listdir(output_dir) if "weights" in name]
    if checkpoints:
        newest = max(checkpoints, key=lambda name: os.path.getmtime(os.path.join(output_dir, name)))
        model.load_weights(os.path.join(output_dir, newest))
    return model


def train(dataset, output_dir):
    model = resume(build_and_compile(), output_dir)
    checkpoint = tf.keras.callbacks.ModelCheckpoint(
        os.path.join(output_dir, "weights_{epoch:03d}_{val_loss:.8f}.hdf5"), save_weights_only=True)
    model.fit(dataset, epochs=10, callbacks=[checkpoint])
