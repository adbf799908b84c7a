import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()
x, y = tf.random.normal((256, 20)), tf.random.normal((256, 1))

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(20,))])
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=3, batch_size=32)
    predictions = model.predict(x)
