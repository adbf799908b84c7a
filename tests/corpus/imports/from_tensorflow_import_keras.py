import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
optimizer = keras.optimizers.Nadam()  # expect: TFS002

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
