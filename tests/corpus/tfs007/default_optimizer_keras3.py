import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(5,)), keras.layers.Dense(1)])

# no optimizer given: compile builds its default "rmsprop" right here
model.compile(loss="mse", metrics=["mae"])  # expect: TFS007
model.fit(tf.random.normal((32, 5)), tf.random.normal((32, 1)), epochs=1)
