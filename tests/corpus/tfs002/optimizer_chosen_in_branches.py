import tensorflow as tf
from tensorflow import keras

OPTIMIZER = "sgd"

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])

if OPTIMIZER == "sgd":
    optimizer = keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)  # expect: TFS002
else:
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)  # expect: TFS002

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.random.normal((64, 20)), tf.random.normal((64, 1)), epochs=2)
