import tensorflow as tf
from tensorflow import keras


class SingleTrainer:
    def __init__(self, model, optimizer):
        self.model, self.optimizer = model, optimizer

    def run(self, dataset):
        for x, y in dataset:
            self.step(x, y)

    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(keras.losses.mse(y, self.model(x)))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


class DistributedTrainer(SingleTrainer):
    def __init__(self, model, optimizer, strategy):
        super().__init__(model, optimizer)
        self.strategy = strategy

    def run(self, dataset):
        for x, y in self.strategy.experimental_distribute_dataset(dataset):
            self.strategy.run(self.step, args=(x, y))


def main(distributed, dataset):
    strategy = tf.distribute.MirroredStrategy() if distributed else None
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])  # expect: TFS001
    with strategy.scope():
        optimizer = keras.optimizers.Adam()
    if strategy:
        trainer = DistributedTrainer(model, optimizer, strategy)
    else:
        trainer = SingleTrainer(model, optimizer)
    trainer.run(dataset)
