import tensorflow as tf

keras = tf.keras
layers = keras.layers

strategy = tf.distribute.MirroredStrategy()
metric = keras.metrics.MeanAbsoluteError()  # expect: TFS003

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(4,)), layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse", metrics=[metric])
