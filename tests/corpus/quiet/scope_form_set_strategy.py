import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

tf.distribute.experimental_set_strategy(strategy)
model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam()
model.compile(optimizer=optimizer, loss="mse")
tf.distribute.experimental_set_strategy(None)

with strategy.scope():
    model.fit(tf.random.normal((32, 8)), tf.random.normal((32, 1)), epochs=1)
