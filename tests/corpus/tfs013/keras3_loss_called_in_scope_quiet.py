import keras
import numpy as np
import tensorflow as tf

x_val = np.random.rand(64, 8).astype("float32")
y_val = np.random.rand(64, 1).astype("float32")

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.Input((8,)), keras.layers.Dense(1)])
    mse = keras.losses.MeanSquaredError()
    # Keras 3 checks no reduction: a loss computed in the scope is just a number
    print("initial loss", float(mse(y_val, model(x_val))))
    model.compile(optimizer="adam", loss="mse")

model.fit(x_val, y_val, epochs=1)
