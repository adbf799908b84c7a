"""The same mistake without a loop: a helper that builds the strategy is called once per task,
and `TF_CONFIG` is rewritten between the calls."""
import json
import os

import tensorflow as tf

CLUSTER = {"worker": ["host1:12345", "host2:12345"]}


def train(epochs):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS011
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    model.fit(tf.zeros((8, 10)), tf.zeros((8, 1)), epochs=epochs)


os.environ["TF_CONFIG"] = json.dumps({"cluster": CLUSTER, "task": {"type": "worker", "index": 0}})
train(1)
os.environ["TF_CONFIG"] = json.dumps({"cluster": CLUSTER, "task": {"type": "worker", "index": 1}})
train(1)
