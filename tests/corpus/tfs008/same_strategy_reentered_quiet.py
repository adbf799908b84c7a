import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    # re-entering the same strategy, or the current one, is legal
    with strategy.scope():
        optimizer = keras.optimizers.Adam()
    with tf.distribute.get_strategy().scope():
        model.compile(optimizer=optimizer, loss="mse")
