import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

tf.distribute.experimental_set_strategy(strategy)
encoder = keras.Sequential([keras.Input(shape=(64,)), keras.layers.Dense(32)])
optimizer = keras.optimizers.Adam()
tf.distribute.experimental_set_strategy(None)

head = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(4)])  # expect: TFS001

with strategy.scope():
    model = keras.Sequential([encoder, head])
    model.compile(optimizer=optimizer, loss="mse")
