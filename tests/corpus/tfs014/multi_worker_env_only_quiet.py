import argparse
import json
import os

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--worker-index", type=int, default=0)
flags = parser.parse_args()
os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["10.0.0.1:2222", "10.0.0.2:2222"]},
    "task": {"type": "worker", "index": flags.worker_index},
})

# Python set-up above runs no TensorFlow op
strategy = tf.distribute.MultiWorkerMirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
