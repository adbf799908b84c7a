"""The same base class, but its strategy path calls the step directly too."""
import contextlib

import tensorflow as tf


class GenericTrainer:
    def scope(self):
        if hasattr(self, "strategy") and (self.strategy is not None):
            return self.strategy.scope()
        return contextlib.nullcontext()

    def _distribute_training_function(self, step_fn):
        if self.strategy is None:
            @tf.function
            def training_step(x, y):
                return step_fn(x, y)
        else:
            @tf.function
            def training_step(x, y):
                return step_fn(x, y)  # expect: TFS012
        return training_step


class SimpleTrainer(GenericTrainer):
    def __init__(self, dataset, strategy=None):
        self.strategy = strategy
        self.dataset = dataset
        with self.scope():
            self.model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(8,))])
            self.optimizer = tf.keras.optimizers.Adam()

        def step_fn(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(self.model(x) - y))
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
            return loss

        self._training_step = self._distribute_training_function(step_fn)

    def fit(self):
        for x, y in self.dataset:
            self._training_step(x, y)
