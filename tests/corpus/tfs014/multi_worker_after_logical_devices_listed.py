import json
import os

import tensorflow as tf


def allow_memory_growth():
    gpus = tf.config.experimental.list_physical_devices("GPU")
    for gpu in gpus:
        tf.config.experimental.set_memory_growth(gpu, True)
    # listing logical devices initialises the runtime: collectives can no longer be configured
    logical_gpus = tf.config.experimental.list_logical_devices("GPU")
    print(len(gpus), "Physical GPUs,", len(logical_gpus), "Logical GPUs")


def main(worker_index):
    allow_memory_growth()
    with open("cluster_config.json") as config:
        cluster = json.load(config)
    os.environ["TF_CONFIG"] = json.dumps({**cluster, "task": {"type": "worker", "index": worker_index}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS014
    with strategy.scope():
        model = tf.keras.applications.ResNet50(weights=None)
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


if __name__ == "__main__":
    main(int(os.environ.get("WORKER_INDEX", "0")))
