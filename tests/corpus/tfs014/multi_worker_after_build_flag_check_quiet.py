"""A SageMaker-style entry point: logging whether TensorFlow was built with CUDA reads a flag
compiled into the binary, so the eager context is still untouched when the multi-worker
strategy configures its collectives."""
import json
import logging
import os

import tensorflow as tf

logger = logging.getLogger(__name__)


def log_diagnostics():
    logger.info("TensorFlow %s, built with CUDA: %s", tf.__version__, tf.test.is_built_with_cuda())
    logger.info("Physical GPUs: %s", tf.config.list_physical_devices("GPU"))


def make_strategy():
    hosts = json.loads(os.environ.get("SM_HOSTS", "[]"))
    current = os.environ.get("SM_CURRENT_HOST", "algo-1")
    os.environ["TF_CONFIG"] = json.dumps({
        "cluster": {"worker": [f"{host}:2222" for host in hosts]},
        "task": {"type": "worker", "index": hosts.index(current) if current in hosts else 0},
    })
    return tf.distribute.MultiWorkerMirroredStrategy()


def main():
    log_diagnostics()
    strategy = make_strategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(784,)), tf.keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    model.fit(x_train.reshape(-1, 784) / 255.0, y_train, epochs=1, batch_size=64)


if __name__ == "__main__":
    main()
