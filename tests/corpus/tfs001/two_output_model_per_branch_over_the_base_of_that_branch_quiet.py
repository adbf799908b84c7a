"""A trainer that builds its base model, then the two-output model over it, in the strategy's
scope when the config asks for distribution and without one otherwise: each two-output model
holds the base made on its own branch, never the other's."""
import tensorflow as tf


def make_model():
    inputs = tf.keras.Input((8,))
    hidden = tf.keras.layers.Dense(16, name="hidden")(inputs)
    return tf.keras.Model(inputs, tf.keras.layers.Dense(1, name="Add_dense_output")(hidden))


def build(config, strategy):
    if config["distribution_strategy"] == "MirroredStrategy":
        with strategy.scope():
            base = make_model()
    else:
        base = make_model()
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
