import keras
from keras import layers

# a Keras 3 distribution scope is not a tf.distribute strategy scope
devices = keras.distribution.list_devices()
mesh = keras.distribution.DeviceMesh(shape=(1, len(devices)), axis_names=["batch", "model"], devices=devices)
layout_map = keras.distribution.LayoutMap(mesh)
layout_map["dense.*kernel"] = (None, "model")

distribution = keras.distribution.ModelParallel(layout_map=layout_map, batch_dim_name="batch")
with distribution.scope():
    model = keras.Sequential([keras.Input(shape=(16,)), layers.Dense(64, name="dense_1")])

model.compile(optimizer="adam", loss="mse")
