import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])

# Keras 2 compile enters the model's strategy itself: a string optimizer is fine here
model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])
model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 10)), epochs=1)
