import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(5)])
    # built-in training loops scale the loss themselves
    loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    model.compile(optimizer=keras.optimizers.Adam(), loss=loss, metrics=["accuracy"])

model.fit(tf.random.normal((128, 20)), tf.random.uniform((128,), maxval=5, dtype=tf.int32), epochs=1)
