"""keras.datasets and numpy run on the host: the eager context is still untouched when the
multi-worker strategy configures collectives."""
import numpy as np
import tensorflow as tf

print(tf.__version__)
(train_images, train_labels), _ = tf.keras.datasets.fashion_mnist.load_data()
train_images = train_images[..., None] / np.float32(255)

strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Flatten(input_shape=(28, 28, 1)), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()
