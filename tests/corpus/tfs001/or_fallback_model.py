import os

import tensorflow as tf
from tensorflow import keras

CHECKPOINT = "runs/latest.keras"

strategy = tf.distribute.MirroredStrategy()
restored = keras.models.load_model(CHECKPOINT) if os.path.exists(CHECKPOINT) else None  # expect: TFS006
model = restored or keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])  # expect: TFS001
with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
