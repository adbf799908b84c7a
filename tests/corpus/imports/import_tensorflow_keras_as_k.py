import tensorflow as tf
import tensorflow.keras as K

strategy = tf.distribute.MirroredStrategy()
optimizer = K.optimizers.Adam(learning_rate=1e-3)  # expect: TFS002

with strategy.scope():
    model = K.Sequential([K.Input(shape=(4,)), K.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
