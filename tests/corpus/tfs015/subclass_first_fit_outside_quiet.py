import tensorflow as tf
from tensorflow import keras


class Forecaster(keras.Model):
    def __init__(self, horizon: int):
        super().__init__()
        self.lstm = keras.layers.LSTM(64)
        self.head = keras.layers.Dense(horizon)

    def call(self, inputs):
        return self.head(self.lstm(inputs))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Forecaster(horizon=24)
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

# fit builds the model under the strategy it was created in: nothing is built outside
model.fit(tf.random.normal((256, 48, 8)), tf.random.normal((256, 24)), epochs=2)
