import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["host1:12345", "host2:12345"]},
    "task": {"type": "worker", "index": int(os.environ.get("WORKER_INDEX", "0"))},
})

# tf.print runs the PrintV2 op eagerly: the context is initialised before the strategy
tf.print("Starting worker", os.environ.get("WORKER_INDEX", "0"))
strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS014

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
