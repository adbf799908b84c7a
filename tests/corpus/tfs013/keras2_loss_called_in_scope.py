# corpus: keras-version=2
import numpy as np
import tensorflow as tf

x_val = np.random.rand(64, 8).astype("float32")
y_val = np.random.rand(64, 1).astype("float32")

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(8,))])
    mse = tf.keras.losses.MeanSquaredError()  # expect: TFS013
    # a sanity check of the untrained model before training starts
    print("initial loss", float(mse(y_val, model(x_val))))
    model.compile(optimizer="adam", loss="mse")

model.fit(x_val, y_val, epochs=1)
