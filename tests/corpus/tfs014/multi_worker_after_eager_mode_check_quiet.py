"""A multi-worker notebook turned script: printing the version, whether eager execution is on
and the GPUs reads flags and discovers devices, none of which starts the eager context."""
import json
import os

import tensorflow as tf

print(tf.__version__)
print(tf.executing_eagerly())
print("GPUs:", tf.config.experimental.list_physical_devices("GPU"))

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["worker-0:12345", "worker-1:12345"]},
    "task": {"type": "worker", "index": 0},
})
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(),
                                 tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
