import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402

strategy = tf.distribute.MirroredStrategy()
optimizer = tf.keras.optimizers.Adam()  # expect: TFS002

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
    model.compile(optimizer=optimizer, loss="mse")

# Keras 2: a string optimizer outside the scope is fine
model.compile(optimizer="adam", loss="mse")
