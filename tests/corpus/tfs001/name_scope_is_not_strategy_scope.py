import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with tf.name_scope("encoder"):
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(16)])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
