"""The host-only metric is added on the single-device path (`device not in accelerators`); only
the other path (`device in accelerators`) compiles under the strategy: `not in` and `in` are
one test, so no path both makes the metric outside and compiles it inside."""
import tensorflow as tf

accelerators = ("GPU", "TPU")


def train(device, dataset):
    strategy = tf.distribute.MirroredStrategy()
    metrics = ["accuracy"]
    if device not in accelerators:
        metrics = [tf.keras.metrics.AUC(num_thresholds=1000)]
    if device in accelerators:
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1, activation="sigmoid")])
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="binary_crossentropy", metrics=metrics)
            model.fit(dataset, epochs=1)
