import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
# notebook style: the scope stays active for the rest of the session
strategy.scope().__enter__()

model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
optimizer = keras.optimizers.Adam()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
