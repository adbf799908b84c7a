"""A Kaggle TPU notebook with no version anywhere but `tensorflow_addons`, which never supported
Keras 3 (its last release, 0.23, stops at TensorFlow 2.15): compile enters the model's strategy
itself on those versions."""
import math

import tensorflow as tf
import tensorflow_addons as tfa

tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(tpu)
tf.tpu.experimental.initialize_tpu_system(tpu)
strategy = tf.distribute.experimental.TPUStrategy(tpu)


def random_rotate(image, label):
    angle = tf.random.uniform([], -math.pi / 12, math.pi / 12)
    return tfa.image.rotate(image, angle), label


with strategy.scope():
    base = tf.keras.applications.DenseNet121(weights="imagenet", include_top=False, input_shape=(512, 512, 3))
    model = tf.keras.Sequential([base, tf.keras.layers.GlobalAveragePooling2D(),
                                 tf.keras.layers.Dense(104, activation="softmax")])

model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
