# corpus: extend-select=TFS010
import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()
x, y = tf.random.normal((256, 20)), tf.random.normal((256, 1))

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(32, activation="relu", input_shape=(20,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    # Keras 2 fit and evaluate enter the model's strategy themselves
    model.fit(x, y, epochs=3, batch_size=32)  # expect: TFS010
    model.evaluate(x, y)  # expect: TFS010
