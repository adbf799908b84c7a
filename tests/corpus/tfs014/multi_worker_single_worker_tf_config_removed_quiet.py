"""Runs the multi-worker code path on one machine: TF_CONFIG is removed, so TensorFlow only
logs that collective ops were not configured at start-up."""
import os

import numpy as np
import tensorflow as tf

os.environ.pop("TF_CONFIG", None)

x = np.random.random((256, 8)).astype("float32")
y = np.random.random((256, 1)).astype("float32")
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)

strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
model.fit(dataset, epochs=1)
