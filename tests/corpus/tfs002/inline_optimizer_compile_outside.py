import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(10,)), keras.layers.Dense(1)])

model.compile(
    optimizer=keras.optimizers.Adam(learning_rate=3e-4),  # expect: TFS002
    loss="mse",
)
model.fit(tf.random.normal((64, 10)), tf.random.normal((64, 1)), epochs=1)
