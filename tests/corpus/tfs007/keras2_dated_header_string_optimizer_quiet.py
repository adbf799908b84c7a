"""
Title: Classification using Attention-based Deep Multiple Instance Learning
Author: a keras-io contributor
Date created: 2021/08/16
Last modified: 2021/11/25
Description: MIL approach to classify bags of instances, trained on every GPU of the machine.
"""
# Written when TensorFlow 2.7 was the newest: Keras 2's compile enters the model's strategy to
# build the "adam" optimizer, so compiling outside the scope works.
import numpy as np
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = keras.Input(shape=(28, 28, 1))
    x = keras.layers.Flatten()(inputs)
    x = keras.layers.Dense(128, activation="relu")(x)
    outputs = keras.layers.Dense(2, activation="softmax")(x)
    model = keras.Model(inputs, outputs)

model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(np.random.rand(256, 28, 28, 1), np.random.randint(0, 2, 256), epochs=20, batch_size=16)
