import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()

# Keras 2 raises "Variable (...) was not created in the distribution strategy scope" at compile
model = keras.Sequential([  # expect: TFS001
    keras.layers.Dense(32, activation="relu", input_shape=(10,)),
    keras.layers.Dense(1),
])

with strategy.scope():
    model.compile(optimizer="adam", loss="mse")

model.fit(tf.random.normal((100, 10)), tf.random.normal((100, 1)), epochs=2)
