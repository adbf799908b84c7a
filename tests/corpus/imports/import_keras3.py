import keras
import tensorflow as tf
from keras import layers

strategy = tf.distribute.MirroredStrategy()
model = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(8), layers.Dense(1)])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
