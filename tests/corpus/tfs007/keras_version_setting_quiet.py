# corpus: keras-version=2
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(8,))])

model.compile(optimizer="adam", loss="mse")
