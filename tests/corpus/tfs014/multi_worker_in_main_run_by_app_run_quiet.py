"""A TFJob worker: flags are defined with `tf.compat.v1.flags` and `tf.compat.v1.app.run`
calls `main`, which creates the MultiWorkerMirroredStrategy first. Neither runs an op: they
are absl's flags and launcher, so the collective set-up is still at program start-up."""
import json
import os

import tensorflow as tf

flags = tf.compat.v1.flags
flags.DEFINE_integer("epochs", 3, "Training epochs.")
flags.DEFINE_float("learning_rate", 1e-3, "Adam learning rate.")
FLAGS = flags.FLAGS


def make_dataset(global_batch_size: int) -> tf.data.Dataset:
    (x_train, y_train), _ = tf.keras.datasets.mnist.load_data()
    dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train))
    return dataset.shuffle(10_000).repeat().batch(global_batch_size)


def main(_):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    workers = len(json.loads(os.environ.get("TF_CONFIG", "{}")).get("cluster", {}).get("worker", [1]))
    with strategy.scope():
        model = tf.keras.Sequential([
            tf.keras.Input(shape=(28, 28)),
            tf.keras.layers.Flatten(),
            tf.keras.layers.Dense(128, activation="relu"),
            tf.keras.layers.Dense(10),
        ])
        model.compile(optimizer=tf.keras.optimizers.Adam(FLAGS.learning_rate),
                      loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                      metrics=["accuracy"])
    model.fit(make_dataset(64 * workers), epochs=FLAGS.epochs, steps_per_epoch=100)


if __name__ == "__main__":
    tf.compat.v1.app.run(main=main)
