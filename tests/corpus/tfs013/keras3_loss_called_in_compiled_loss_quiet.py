import keras
import numpy as np
import tensorflow as tf

mse = keras.losses.MeanSquaredError()
mae = keras.losses.MeanAbsoluteError()


# Keras 3 checks no reduction: the inner losses are plain functions of the batch
def mixed_loss(y_true, y_pred):
    return 0.8 * mse(y_true, y_pred) + 0.2 * mae(y_true, y_pred)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss=mixed_loss)

model.fit(np.zeros((32, 4)), np.zeros((32, 1)), epochs=1)
