import keras
import tensorflow as tf

devices = keras.distribution.list_devices()
data_parallel = keras.distribution.DataParallel(devices=devices)
keras.distribution.set_distribution(data_parallel)
model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
with tf.name_scope("train"):
    model.compile(optimizer="adam", loss="mse")
layout_map = keras.distribution.LayoutMap(data_parallel.device_mesh)
with layout_map.scope():
    model2 = keras.Sequential([keras.layers.Dense(1)])
