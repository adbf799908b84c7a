import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = keras.Input(shape=(10,))
    outputs = keras.layers.Dense(1)(keras.layers.Dense(32, activation="relu")(inputs))
    model = keras.Model(inputs, outputs)
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

# a functional model has its weights from the start
print(model(tf.zeros((1, 10))).shape)
model.summary()
