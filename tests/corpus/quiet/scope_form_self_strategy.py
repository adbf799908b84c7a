import tensorflow as tf
from tensorflow import keras


class Experiment:
    def __init__(self, strategy: tf.distribute.Strategy):
        self.strategy = strategy
        with self.strategy.scope():
            self.model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
            self.optimizer = keras.optimizers.Adam()

    def compile(self) -> None:
        with self.strategy.scope():
            self.model.compile(optimizer=self.optimizer, loss="mse")

    def run(self, features, targets) -> None:
        self.model.fit(features, targets, epochs=1)


experiment = Experiment(tf.distribute.MirroredStrategy())
experiment.compile()
experiment.run(tf.random.normal((32, 8)), tf.random.normal((32, 1)))
