import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)

# every variable owner already exists under the strategy
model.compile(optimizer=optimizer, loss="mse", metrics=["mae"])
model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 10)), epochs=1)
