import tensorflow as tf
from tensorflow import keras


def train(hidden_units: int) -> float:
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([
            keras.Input(shape=(16,)),
            keras.layers.Dense(hidden_units, activation="relu"),
            keras.layers.Dense(1),
        ])
        model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    history = model.fit(tf.random.normal((256, 16)), tf.random.normal((256, 1)), epochs=2, verbose=0)
    return history.history["loss"][-1]


small = train(32)
large = train(256)
print(small, large)
