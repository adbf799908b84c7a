# corpus: keras-version=3
import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(4, input_shape=(8,))])

# the file imports tf_keras: Keras 2, whatever the setting says
model.compile(optimizer="adam", loss="mse")
