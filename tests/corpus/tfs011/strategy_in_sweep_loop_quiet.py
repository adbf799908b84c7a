import tensorflow as tf
from tensorflow import keras

x, y = tf.random.normal((512, 16)), tf.random.normal((512, 1))

for learning_rate in (1e-2, 1e-3, 1e-4):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.Adam(learning_rate), loss="mse")
    model.fit(x, y, epochs=2, verbose=0)
