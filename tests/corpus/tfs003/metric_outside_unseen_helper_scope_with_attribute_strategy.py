import tensorflow as tf
from official.common import distribute_utils


class Task:
    def train(self, dataset):
        with distribute_utils.get_strategy_scope(self.strategy):
            model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
        train_loss = tf.keras.metrics.Mean("training_loss")  # expect: TFS003

        def step_fn(features):
            train_loss.update_state(tf.reduce_sum(model(features)))

        for features in dataset:
            self.strategy.run(step_fn, args=(features,))
