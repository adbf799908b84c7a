"""The multi-worker tutorial run in one notebook: a single-worker warm-up trains first, then the
strategy is created before the notebook sets `TF_CONFIG`, so it finds no cluster and runs as one
worker, where TensorFlow only logs that collectives were not configured at start-up."""
import json
import os

import tensorflow as tf

(x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64)
single = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
single.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
single.fit(dataset, epochs=1)

tf_config = {"cluster": {"worker": ["localhost:12345", "localhost:23456"]}, "task": {"type": "worker", "index": 0}}
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")

os.environ["TF_CONFIG"] = json.dumps(tf_config)  # for the worker processes started below
