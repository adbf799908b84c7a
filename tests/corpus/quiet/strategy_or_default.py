import tensorflow as tf
from tensorflow import keras

gpus = tf.config.list_physical_devices("GPU")
if len(gpus) > 1:
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = tf.distribute.get_strategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

# nested lookup of the current strategy inside its own scope is the same strategy
with strategy.scope():
    with tf.distribute.get_strategy().scope():
        extra_metric = keras.metrics.MeanAbsoluteError()

model.fit(tf.random.normal((32, 4)), tf.random.normal((32, 1)), epochs=1)
