import tensorflow as tf
from tensorflow import keras


def build_model() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(12,)), keras.layers.Dense(3)])


class Trainer:
    def __init__(self, strategy: tf.distribute.Strategy):
        self.strategy = strategy
        # the constructor enters the scope itself, just too late for the model
        self.model = build_model()  # expect: TFS001
        with self.strategy.scope():
            self.optimizer = keras.optimizers.Adam(1e-3)

    def compile(self):
        with self.strategy.scope():
            self.model.compile(optimizer=self.optimizer, loss="mse")


strategy = tf.distribute.MirroredStrategy()
trainer = Trainer(strategy)
trainer.compile()
