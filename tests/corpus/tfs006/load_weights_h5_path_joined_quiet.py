"""Weights paths joined from a folder and a file name (`os.path.join`, `tf.io.gfile.join`,
`pathlib.Path /`, `str()`, an f-string, a default argument, a helper that returns the name): the
file name decides the format, and an HDF5 weights file creates no optimizer variable, although
the module also writes TF checkpoints."""
# corpus: keras-version=2
import os
import pathlib

import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


def final_weights_name():
    return "weights_final.hdf5"


def build_and_compile_model():
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
    return model


def load_pretrained(output_dir):
    model = build_and_compile_model()
    model.load_weights(os.path.join(output_dir, "pretrained.h5"))
    model.load_weights(tf.io.gfile.join(output_dir, "finetuned.h5"))
    return model


def load_final(output_dir):
    model = build_and_compile_model()
    model.load_weights(str(pathlib.Path(output_dir) / final_weights_name()))
    return model


def load_best(output_dir, weights_name="best.h5"):
    model = build_and_compile_model()
    model.load_weights(f"{output_dir}/{weights_name}")
    return model


model = load_pretrained("runs")
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 32], [0.0])).batch(1), epochs=1)
model.save_weights(os.path.join("runs", "model.ckpt"))
evaluated = load_final("runs")
evaluated.predict(tf.zeros((16, 32)))
load_best("runs").predict(tf.zeros((16, 32)))
