# corpus: keras-version=2
import tensorflow as tf

mae = tf.keras.losses.MeanAbsoluteError()  # expect: TFS013


def mae_in_pixels(y_true, y_pred):
    """The reconstruction error on the 0-255 scale, for the training log."""
    return mae(y_true * 255.0, y_pred * 255.0)


def build_autoencoder():
    inputs = tf.keras.Input((28, 28, 1))
    encoded = tf.keras.layers.Conv2D(8, 3, strides=2, padding="same", activation="relu")(inputs)
    decoded = tf.keras.layers.Conv2DTranspose(1, 3, strides=2, padding="same", activation="sigmoid")(encoded)
    return tf.keras.Model(inputs, decoded)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    autoencoder = build_autoencoder()
    autoencoder.compile(optimizer="adam", loss="binary_crossentropy", metrics=[mae_in_pixels])

(x_train, _), (x_test, _) = tf.keras.datasets.mnist.load_data()
x_train = x_train[..., None].astype("float32") / 255.0
autoencoder.fit(x_train, x_train, batch_size=256, epochs=5)
