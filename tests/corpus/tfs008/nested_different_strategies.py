import tensorflow as tf
from tensorflow import keras

mirrored = tf.distribute.MirroredStrategy()
cpu_only = tf.distribute.OneDeviceStrategy(device="/cpu:0")

with mirrored.scope():
    model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(4)])
    # raises "Mixing different tf.distribute.Strategy objects"
    with cpu_only.scope():  # expect: TFS008
        probe = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(1)])
