import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

x_batch, y_batch = tf.random.normal((32, 8)), tf.random.normal((32, 1))
# Keras' own training methods distribute themselves: they are not replica functions
strategy.run(model.train_on_batch, args=(x_batch, y_batch))  # expect: TFS012
