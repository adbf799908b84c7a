"""
Title: Image classification via fine-tuning with EfficientNet
Author: a keras-io contributor
Date created: 2020/06/30
Last modified: 2020/07/16
Description: Fine-tune a pre-trained EfficientNet on Stanford Dogs, on a TPU or several GPUs.
"""
# The header dates the example to TensorFlow 2.3 at the newest: the `Adam` of the unfreeze step is
# an OptimizerV2, which makes no variable until `fit` steps it under the model's strategy.
import tensorflow as tf
from tensorflow.keras import layers
from tensorflow.keras.applications import EfficientNetB0

IMG_SIZE = 224
NUM_CLASSES = 120

strategy = tf.distribute.MirroredStrategy()


def build_model(num_classes):
    inputs = layers.Input(shape=(IMG_SIZE, IMG_SIZE, 3))
    backbone = EfficientNetB0(include_top=False, input_tensor=inputs, weights="imagenet")
    backbone.trainable = False
    x = layers.GlobalAveragePooling2D(name="avg_pool")(backbone.output)
    x = layers.Dropout(0.2, name="top_dropout")(x)
    outputs = layers.Dense(num_classes, activation="softmax", name="pred")(x)
    model = tf.keras.Model(inputs, outputs, name="EfficientNet")
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-2), loss="categorical_crossentropy",
                  metrics=["accuracy"])
    return model


def unfreeze_model(model):
    for layer in model.layers[-20:]:
        if not isinstance(layer, layers.BatchNormalization):
            layer.trainable = True
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=1e-4), loss="categorical_crossentropy",
                  metrics=["accuracy"])


train_images = tf.random.uniform((64, IMG_SIZE, IMG_SIZE, 3))
train_labels = tf.one_hot(tf.random.uniform((64,), maxval=NUM_CLASSES, dtype=tf.int32), NUM_CLASSES)

with strategy.scope():
    model = build_model(num_classes=NUM_CLASSES)
model.fit(train_images, train_labels, epochs=25, batch_size=32)

unfreeze_model(model)
model.fit(train_images, train_labels, epochs=10, batch_size=32)
