"""A trainer whose strategy is optional, built without one: its `self.strategy.run` branch never runs."""
import tensorflow as tf


class Trainer:
    def __init__(self, strategy=None):
        self.strategy = strategy
        self.optimizer = tf.keras.optimizers.Adam()

    def fit(self, model, batches):
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x))
            grads = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, model.trainable_variables))

        for x in batches:
            if self.strategy:
                self.strategy.run(step, args=(x,))
            else:
                step(x)


model = tf.keras.Sequential([tf.keras.Input(shape=(3,)), tf.keras.layers.Dense(1)])
trainer = Trainer()
trainer.fit(model, [])
