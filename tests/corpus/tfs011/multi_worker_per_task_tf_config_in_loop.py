"""A launcher that plays every task of the cluster in one process: each pass rewrites `TF_CONFIG`
for the next task, so the next MultiWorkerMirroredStrategy asks for other device filters than the
collective set-up in force, and `configure_collective_ops` raises `ValueError: Collective ops are
already configured.` One process joins one cluster as one task."""
import json
import os

import tensorflow as tf

CLUSTER = {"worker": ["host1:12345", "host2:12345", "host3:12345"]}


def make_model():
    return tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])


for index in range(len(CLUSTER["worker"])):
    os.environ["TF_CONFIG"] = json.dumps({"cluster": CLUSTER, "task": {"type": "worker", "index": index}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS011
    with strategy.scope():
        model = make_model()
        model.compile(optimizer="adam", loss="mse")
