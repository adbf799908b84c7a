import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

# both are built before the scope: fixing only the model would leave the optimizer behind
model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(1)])  # expect: TFS001
optimizer = keras.optimizers.Adam(learning_rate=1e-4)  # expect: TFS002

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")

model.fit(tf.random.normal((64, 16)), tf.random.normal((64, 1)), epochs=1)
