# corpus: extend-select=TFS010
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf  # noqa: E402

strategy = tf.distribute.MirroredStrategy()
features = tf.random.normal((64, 5))

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(5,))])
    model.compile(optimizer="adam", loss="mse")
    scores = model.predict(features)  # expect: TFS010
