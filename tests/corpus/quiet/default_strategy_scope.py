import tensorflow as tf
from tensorflow import keras

# outside any scope, get_strategy() is the default no-op strategy: never "a different strategy"
strategy = tf.distribute.get_strategy()

model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")

model.fit(tf.random.normal((32, 4)), tf.random.normal((32, 1)), epochs=1)
