import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with open("train.log", "w") as log, strategy.scope():
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    log.write("model built\n")

with tf.name_scope("training"), strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
