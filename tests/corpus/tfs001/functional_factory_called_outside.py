"""A functional model built by a factory (layers called inside it, and inside a block helper)
and created outside the scope: the fix moves the factory call, so that is where it is reported."""
import tensorflow as tf


def conv_block(x, filters):
    x = tf.keras.layers.Conv2D(filters, 3, padding="same")(x)
    return tf.keras.layers.ReLU()(x)


def get_model():
    inputs = tf.keras.Input(shape=(28, 28, 1))
    x = conv_block(inputs, 32)
    x = tf.keras.layers.GlobalAveragePooling2D()(x)
    outputs = tf.keras.layers.Dense(10)(x)
    model = tf.keras.Model(inputs, outputs)
    return model


strategy = tf.distribute.MirroredStrategy()
model = get_model()  # expect: TFS001
with strategy.scope():
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
model.fit(tf.data.Dataset.from_tensor_slices(([[[[0.0]] * 28] * 28], [0])).batch(1), epochs=1)
