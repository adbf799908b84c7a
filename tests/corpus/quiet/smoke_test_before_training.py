import tensorflow as tf
from tensorflow import keras


def build_model() -> keras.Model:
    inputs = keras.Input(shape=(32,))
    outputs = keras.layers.Dense(4)(keras.layers.Dense(64, activation="relu")(inputs))
    return keras.Model(inputs, outputs)


# a quick shape check on one device before starting the real run
smoke = build_model()
assert smoke(tf.zeros((2, 32))).shape == (2, 4)

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = build_model()
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 4)), epochs=1)
