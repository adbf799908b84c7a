"""The same trainer with the dispatch the wrong way round: `not isinstance(self.strategy,
HorovodStrategy)` holds for every tf.distribute strategy, which so gets the step that calls
`apply_gradients` directly, in cross-replica context."""
import contextlib

import tensorflow as tf


class HorovodStrategy:
    """Mimics the tf.distribute.Strategy interface for Horovod."""

    def __init__(self):
        self.num_replicas_in_sync = 1

    def scope(self):
        return contextlib.nullcontext()


def get_strategy(name):
    if name == "mirrored":
        return tf.distribute.MirroredStrategy()
    elif name == "horovod":
        return HorovodStrategy()
    return tf.distribute.get_strategy()


class Trainer:
    def __init__(self, strategy):
        self.strategy = strategy
        with self.strategy.scope():
            self.model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
            self.optimizer = tf.keras.optimizers.Adam(1e-3)

    def base_train_step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        gradients = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))
        return loss

    def setup_step(self):
        if not isinstance(self.strategy, HorovodStrategy):
            @tf.function
            def train_step(x, y):
                return self.base_train_step(x, y)  # expect: TFS012
        else:
            @tf.function
            def train_step(x, y):
                losses = self.strategy.run(self.base_train_step, args=(x, y))
                return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)
        self.train_step = train_step


def main(dist_strategy):
    strategy = get_strategy(dist_strategy)
    trainer = Trainer(strategy)
    trainer.setup_step()
    for _ in range(10):
        trainer.train_step(tf.zeros((4, 8)), tf.zeros((4, 1)))
