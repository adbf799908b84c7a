"""A 2019 multi-GPU segmentation script: `fit_generator` exists only in Keras 2 (Keras 3's models
have none), whose compile enters the model's strategy itself."""
import numpy as np
import tensorflow as tf


def batches(batch_size=8):
    while True:
        yield np.random.rand(batch_size, 128, 128, 3), np.random.rand(batch_size, 128, 128, 1)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = tf.keras.Input((128, 128, 3))
    x = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(inputs)
    outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid")(x)
    model = tf.keras.Model(inputs, outputs)

model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
model.fit_generator(batches(), steps_per_epoch=100, epochs=5)
