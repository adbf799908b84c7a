import tensorflow as tf
from tensorflow import keras


class Trainer:
    def __init__(self, strategy: tf.distribute.Strategy, learning_rate: float):
        self.strategy = strategy
        self.model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(5)])
        self.optimizer = keras.optimizers.Adam(learning_rate)
        self.accuracy = keras.metrics.SparseCategoricalAccuracy()
        self.loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")

    def train_step(self, features, labels):
        with tf.GradientTape() as tape:
            logits = self.model(features, training=True)
            loss = tf.nn.compute_average_loss(self.loss_object(labels, logits))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        self.accuracy.update_state(labels, logits)
        return loss

    @tf.function
    def distributed_train_step(self, features, labels):
        return self.strategy.run(self.train_step, args=(features, labels))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    trainer = Trainer(strategy, learning_rate=1e-3)

trainer.distributed_train_step(tf.random.normal((32, 20)), tf.random.uniform((32,), maxval=5, dtype=tf.int32))
