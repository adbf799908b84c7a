import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["host1:12345", "host2:12345"]},
    "task": {"type": "worker", "index": 0},
})

features = tf.random.normal((1024, 32))
dataset = tf.data.Dataset.from_tensor_slices(features).batch(64)

# "Collective ops must be configured at program startup"
strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS014

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
