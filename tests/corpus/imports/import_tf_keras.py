import tensorflow as tf
import tf_keras

strategy = tf.distribute.MirroredStrategy()
model = tf_keras.Sequential([tf_keras.layers.Dense(1, input_shape=(4,))])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
