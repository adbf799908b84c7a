import tensorflow as tf
from tensorflow import keras


def build_model(num_classes: int) -> keras.Model:
    # lexically outside any scope, but only ever called inside one
    backbone = keras.applications.MobileNetV3Small(weights=None, include_top=False, input_shape=(128, 128, 3))
    return keras.Sequential([backbone, keras.layers.GlobalAveragePooling2D(), keras.layers.Dense(num_classes)])


def build_optimizer() -> keras.optimizers.Optimizer:
    return keras.optimizers.SGD(learning_rate=0.05, momentum=0.9)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = build_model(num_classes=20)
    optimizer = build_optimizer()

with strategy.scope():
    model.compile(optimizer=optimizer, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
