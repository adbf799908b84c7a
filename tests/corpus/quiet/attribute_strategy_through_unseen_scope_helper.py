import tensorflow as tf
from official.common import distribute_utils


class TransformerTask:
    def __init__(self, flags_obj):
        self.distribution_strategy = distribute_utils.get_distribution_strategy(
            distribution_strategy=flags_obj.distribution_strategy, num_gpus=flags_obj.num_gpus)

    def train(self, dataset):
        # the helper returns `self.distribution_strategy.scope()`, and `run` uses the same strategy
        with distribute_utils.get_strategy_scope(self.distribution_strategy):
            model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
            optimizer = tf.keras.optimizers.Adam()
            train_loss = tf.keras.metrics.Mean("training_loss")

        def step_fn(features, labels):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(labels - model(features)))
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(zip(grads, model.trainable_variables))
            train_loss.update_state(loss)

        for features, labels in dataset:
            self.distribution_strategy.run(step_fn, args=(features, labels))
