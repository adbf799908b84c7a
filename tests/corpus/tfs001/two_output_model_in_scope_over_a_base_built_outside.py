"""The twin with the base built once, before the branch, outside every scope: the two-output
model made in the scope holds its layers, whose weights are plain variables."""
import tensorflow as tf


def make_model():
    inputs = tf.keras.Input((8,))
    hidden = tf.keras.layers.Dense(16, name="hidden")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="Add_dense_output")(hidden))


def build(config, strategy):
    base = make_model()  # expect: TFS001
    if config["distribution_strategy"] == "MirroredStrategy":
        with strategy.scope():
            model = tf.keras.Model(base.input, (base.outputs, base.get_layer("hidden").output))
            model.compile(loss="mse", optimizer=tf.keras.optimizers.Adam())
    else:
        model = tf.keras.Model(base.input, (base.outputs, base.get_layer("hidden").output))
        model.compile(loss="mse", optimizer=tf.keras.optimizers.Adam())
    return model


config = {"distribution_strategy": "MirroredStrategy"}
strategy = tf.distribute.MultiWorkerMirroredStrategy()
model = build(config, strategy)
model.fit(tf.zeros((8, 8)), (tf.zeros((8, 1)), tf.zeros((8, 16))), epochs=1)
