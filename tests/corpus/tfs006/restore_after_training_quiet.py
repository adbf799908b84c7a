import os

import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
checkpoint_dir = "./training_checkpoints"

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(28, 28)), keras.layers.Flatten(), keras.layers.Dense(10)])
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

(x_train, y_train), (x_test, y_test) = keras.datasets.mnist.load_data()
callbacks = [keras.callbacks.ModelCheckpoint(os.path.join(checkpoint_dir, "ckpt_{epoch}.weights.h5"), save_weights_only=True)]
model.fit(x_train / 255.0, y_train, epochs=3, callbacks=callbacks)

# the tutorial's evaluation: the trained model's variables exist, restoring outside is fine
model.load_weights(os.path.join(checkpoint_dir, "ckpt_3.weights.h5"))
model.evaluate(x_test / 255.0, y_test)
