import tensorflow as tf
from tensorflow import keras


def build_model() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(12,)), keras.layers.Dense(3)])


class Trainer:
    def __init__(self, strategy: tf.distribute.Strategy):
        self.strategy = strategy
        self.model = build_model()
        with self.strategy.scope():
            self.optimizer = keras.optimizers.Adam(1e-3)

    def compile(self):
        with self.strategy.scope():
            self.model.compile(optimizer=self.optimizer, loss="mse")


strategy = tf.distribute.MirroredStrategy()
# the constructor builds the model outside any scope: the call is where it is created
trainer = Trainer(strategy)  # expect: TFS001
trainer.compile()
