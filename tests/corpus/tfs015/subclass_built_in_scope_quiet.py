import tensorflow as tf
from tensorflow import keras


class Regressor(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(64, activation="relu")
        self.out = keras.layers.Dense(1)

    def call(self, inputs):
        return self.out(self.hidden(inputs))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Regressor()
    model.build(input_shape=(None, 10))
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

# already built in the scope: calling it here creates nothing
print(model(tf.zeros((2, 10))))
model.fit(tf.random.normal((64, 10)), tf.random.normal((64, 1)), epochs=1)
