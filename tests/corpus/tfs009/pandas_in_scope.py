import pandas as pd
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    frame = pd.read_csv("data/housing.csv")  # expect: TFS009
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

targets = frame.pop("median_house_value")
model.fit(frame.to_numpy(), targets.to_numpy(), epochs=10, batch_size=64)
