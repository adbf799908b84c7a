# corpus: extend-select=TFS010
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
x, y = tf.random.normal((256, 20)), tf.random.normal((256, 1))

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    # Keras 3 fit does not enter the scope: keras.io keeps it here
    model.fit(x, y, epochs=3, batch_size=32)
