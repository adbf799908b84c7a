import tensorflow as tf

strategy = tf.compat.v1.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
