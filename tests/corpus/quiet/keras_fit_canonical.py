import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([
        keras.layers.Dense(64, activation="relu", input_shape=(32,)),
        keras.layers.Dense(10, activation="softmax"),
    ])
    optimizer = keras.optimizers.Adam()
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", metrics=["accuracy"])

x = tf.random.normal((1024, 32))
y = tf.random.uniform((1024,), maxval=10, dtype=tf.int32)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)
model.fit(dataset, epochs=3)
