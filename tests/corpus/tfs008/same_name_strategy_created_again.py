import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(1)])

# a notebook cell re-run later with other devices
strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")  # expect: TFS008
