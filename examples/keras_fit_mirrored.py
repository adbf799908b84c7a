"""Correct: image classification with Keras `fit` on every local GPU (MirroredStrategy).

Variables (model, optimizer, metrics) are created inside `strategy.scope()`; the input pipeline
and `fit` stay outside, as the TensorFlow distributed-training guide recommends.
"""

import tensorflow as tf
from tensorflow import keras

BATCH_SIZE_PER_REPLICA = 64
EPOCHS = 10
NUM_CLASSES = 10

strategy = tf.distribute.MirroredStrategy()
print(f"Training on {strategy.num_replicas_in_sync} replica(s)")
global_batch_size = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync


def preprocess(image, label):
    image = tf.image.convert_image_dtype(image, tf.float32)
    image = tf.image.random_flip_left_right(image)
    return image, label


def make_datasets():
    (x_train, y_train), (x_test, y_test) = keras.datasets.cifar10.load_data()
    train = (
        tf.data.Dataset.from_tensor_slices((x_train, y_train))
        .shuffle(50_000)
        .map(preprocess, num_parallel_calls=tf.data.AUTOTUNE)
        .batch(global_batch_size)
        .prefetch(tf.data.AUTOTUNE)
    )
    test = tf.data.Dataset.from_tensor_slices((x_test, y_test)).batch(global_batch_size)
    return train, test


def build_model() -> keras.Model:
    inputs = keras.Input(shape=(32, 32, 3))
    x = inputs
    for filters in (32, 64, 128):
        x = keras.layers.Conv2D(filters, 3, padding="same", activation="relu")(x)
        x = keras.layers.BatchNormalization()(x)
        x = keras.layers.MaxPooling2D()(x)
    x = keras.layers.GlobalAveragePooling2D()(x)
    x = keras.layers.Dropout(0.3)(x)
    outputs = keras.layers.Dense(NUM_CLASSES)(x)
    return keras.Model(inputs, outputs, name="small_cnn")


train_ds, test_ds = make_datasets()

with strategy.scope():
    # the factory body is unscoped, but it runs here, inside the scope
    model = build_model()
    optimizer = keras.optimizers.Adam(learning_rate=1e-3 * strategy.num_replicas_in_sync)
    model.compile(
        optimizer=optimizer,
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=[keras.metrics.SparseCategoricalAccuracy(name="accuracy")],
    )

callbacks = [
    keras.callbacks.ModelCheckpoint("checkpoints/cifar10-{epoch:02d}.weights.h5", save_weights_only=True),
    keras.callbacks.ReduceLROnPlateau(patience=2),
]
model.fit(train_ds, validation_data=test_ds, epochs=EPOCHS, callbacks=callbacks)
model.evaluate(test_ds)
model.save("artifacts/cifar10.keras")
