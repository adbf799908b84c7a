import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(8,))])

model.compile(optimizer="rmsprop", loss="mse")
model.fit(tf.random.normal((16, 8)), tf.random.normal((16, 4)), epochs=1)
