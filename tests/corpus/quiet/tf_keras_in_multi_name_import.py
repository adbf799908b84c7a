# the import style of tensorflow/models: one statement brings in TensorFlow and Keras 2
import tensorflow as tf, tf_keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf_keras.Sequential([tf_keras.Input(shape=(8,)), tf_keras.layers.Dense(1)])

# Keras 2: compile enters the model's strategy itself, so a string optimizer is built in scope
model.compile(optimizer="adam", loss="mse")
model.fit(tf.random.normal((32, 8)), tf.random.normal((32, 1)), epochs=1)
