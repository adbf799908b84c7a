"""Buggy: multi-worker training launched on every worker with the same script.

`TF_CONFIG` describes the cluster; MultiWorkerMirroredStrategy must be created before any other
TensorFlow op, and Keras 3 builds a string optimizer wherever `compile` runs.
"""

import json
import os

import tensorflow as tf
from tensorflow import keras

os.environ.setdefault("TF_CONFIG", json.dumps({
    "cluster": {"worker": ["localhost:12345", "localhost:23456"]},
    "task": {"type": "worker", "index": 0},
}))

PER_WORKER_BATCH_SIZE = 64
num_workers = len(json.loads(os.environ["TF_CONFIG"])["cluster"]["worker"])
global_batch_size = PER_WORKER_BATCH_SIZE * num_workers


def mnist_dataset(batch_size: int) -> tf.data.Dataset:
    (x_train, y_train), _ = keras.datasets.mnist.load_data()
    x_train = x_train / 255.0
    return tf.data.Dataset.from_tensor_slices((x_train, y_train)).shuffle(60_000).repeat().batch(batch_size)


# this dataset runs TensorFlow ops before the strategy exists
multi_worker_dataset = mnist_dataset(global_batch_size)

# BUG TFS014: "Collective ops must be configured at program startup": create the strategy
# before building the dataset.
strategy = tf.distribute.MultiWorkerMirroredStrategy()

with strategy.scope():
    model = keras.Sequential([
        keras.Input(shape=(28, 28)),
        keras.layers.Reshape((28, 28, 1)),
        keras.layers.Conv2D(32, 3, activation="relu"),
        keras.layers.Flatten(),
        keras.layers.Dense(128, activation="relu"),
        keras.layers.Dense(10),
    ])

# BUG TFS007: under Keras 3 the "sgd" string becomes an optimizer right here, under the default
# strategy, and fit fails with "Mixing different tf.distribute.Strategy objects".
model.compile(
    optimizer="sgd",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
model.fit(multi_worker_dataset, epochs=3, steps_per_epoch=70)
