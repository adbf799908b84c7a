"""Buggy: a Keras `fit` script with the three classic placement mistakes.

Run `tfscope check examples/buggy_keras_fit.py` to see them; each is explained where it happens.
"""

import tensorflow as tf
from tensorflow import keras

NUM_CLASSES = 5
IMAGE_SIZE = (160, 160)

strategy = tf.distribute.MirroredStrategy()
print(f"Replicas: {strategy.num_replicas_in_sync}")


def build_model() -> keras.Model:
    base = keras.applications.MobileNetV2(input_shape=IMAGE_SIZE + (3,), include_top=False, weights="imagenet")
    base.trainable = False
    inputs = keras.Input(shape=IMAGE_SIZE + (3,))
    x = keras.applications.mobilenet_v2.preprocess_input(inputs)
    x = base(x, training=False)
    x = keras.layers.GlobalAveragePooling2D()(x)
    outputs = keras.layers.Dense(NUM_CLASSES)(x)
    return keras.Model(inputs, outputs)


# BUG TFS001: the factory runs here, before the scope, so every weight is a plain variable;
# compiling inside the scope later cannot turn them into mirrored variables.
model = build_model()

# BUG TFS002: the optimizer is created outside the scope too, under the default strategy.
optimizer = keras.optimizers.Adam(learning_rate=1e-4)

with strategy.scope():
    # BUG TFS009: loading data needs no scope; the scope is not a "distributed mode" switch.
    train_ds = keras.utils.image_dataset_from_directory(
        "flower_photos",
        validation_split=0.2,
        subset="training",
        seed=123,
        image_size=IMAGE_SIZE,
        batch_size=32,
    )
    model.compile(
        optimizer=optimizer,
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

val_ds = keras.utils.image_dataset_from_directory(
    "flower_photos",
    validation_split=0.2,
    subset="validation",
    seed=123,
    image_size=IMAGE_SIZE,
    batch_size=32,
)
model.fit(train_ds.prefetch(tf.data.AUTOTUNE), validation_data=val_ds, epochs=5)
