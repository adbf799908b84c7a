"""A Kaggle TPU notebook (EfficientNetV2 fine-tuning shape): the augmentation stack made before the
scope only resizes, so it has no weight to misplace; the backbone and head are built in the scope."""
import tensorflow as tf
from tensorflow.keras import layers

IMAGE_SIZE = 224

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

data_augmentation = tf.keras.Sequential(
    [
        layers.Resizing(IMAGE_SIZE, IMAGE_SIZE),
        layers.Rescaling(1 / 255.0),
    ],
    name="data_augmentation",
)

with strategy.scope():
    inputs = layers.Input(shape=(None, None, 3))
    x = data_augmentation(inputs)
    backbone = tf.keras.applications.EfficientNetV2B0(include_top=False, weights="imagenet", input_shape=(224, 224, 3))
    x = layers.GlobalAveragePooling2D()(backbone(x))
    outputs = layers.Dense(5, activation="softmax")(x)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
