import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
distributed = strategy.scope()

model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])  # expect: TFS001

with distributed:
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
