import json
import os

import tensorflow as tf
import tensorflow_datasets as tfds

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["host1:12345", "host2:12345"]},
    "task": {"type": "worker", "index": 0},
})

# tfds.load builds tf.data pipelines: TensorFlow ops before the strategy
datasets, info = tfds.load(name="mnist", with_info=True, as_supervised=True)
train_dataset = datasets["train"].map(lambda image, label: (tf.cast(image, tf.float32) / 255, label)).batch(64)

# "Collective ops must be configured at program startup" (tensorflow/tensorflow#30551, #34568)
strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS014

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.001), loss="sparse_categorical_crossentropy")

model.fit(train_dataset, epochs=3, steps_per_epoch=5)
