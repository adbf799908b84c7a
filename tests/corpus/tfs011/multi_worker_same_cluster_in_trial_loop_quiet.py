"""A sweep re-creates its MultiWorkerMirroredStrategy per trial from the same `TF_CONFIG`: the
collective set-up asked for again is the one in force, which `configure_collective_ops` accepts
(it returns early when leader, scoped ops and device filters are unchanged), and the worker's
server is only updated (`enable_collective_ops`); TensorFlow's own multi-worker test pools
create a strategy per test in one process."""
import json
import os

import tensorflow as tf

tf_config = json.loads(os.environ["TF_CONFIG"])
print("worker", tf_config["task"]["index"])


def make_model():
    return tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])


for trial in range(3):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = make_model()
        model.compile(optimizer="adam", loss="mse")
