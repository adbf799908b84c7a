import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()


def get_model() -> keras.Model:
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(10,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    return model


# the call site looks unscoped, but the factory opened the scope itself
model = get_model()
with strategy.scope():
    model.fit(tf.random.normal((64, 10)), tf.random.normal((64, 1)), epochs=1)
