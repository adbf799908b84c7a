import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
central = tf.distribute.experimental.CentralStorageStrategy()

with central.scope():
    optimizer = tf.keras.optimizers.Adam(1e-3)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")  # expect: TFS008
