import tensorflow as tf
from tensorflow import keras

gpu_strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
eval_strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")

with eval_strategy.scope():
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])

with gpu_strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")  # expect: TFS008

model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 10)), epochs=1)
