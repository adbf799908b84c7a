"""Checking the TensorFlow version (`tf.version.VERSION`, `tf.__version__`) reads a constant
string: it runs no op and creates no eager context, so the multi-worker strategy made after it
is still the program's first TensorFlow work."""
import json

import tensorflow as tf


def main(flags):
    assert tf.version.VERSION.startswith("2."), "this script needs TensorFlow 2"
    print("TensorFlow", tf.__version__, "compiled against", tf.version.GIT_VERSION)
    with tf.io.gfile.GFile(flags["input_meta_data_path"], "rb") as reader:
        input_meta_data = json.loads(reader.read().decode("utf-8"))
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # the cluster comes from TF_CONFIG
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(input_meta_data["num_labels"])])
        model.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    return model


if __name__ == "__main__":
    main({"input_meta_data_path": "gs://bucket/squad/meta_data"})
