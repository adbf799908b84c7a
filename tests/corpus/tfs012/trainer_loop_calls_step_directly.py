"""A benchmark class builds its model and optimizer in the scope of the strategy it is given,
but its own training loop calls the step directly: nobody in this module calls the class, yet
its loop shows the step does not go through `strategy.run`."""
import tensorflow as tf


class Benchmark:
    def __init__(self, epochs, strategy=None):
        self.epochs = epochs
        self.strategy = strategy
        with self.strategy.scope():
            self.model = tf.keras.applications.ResNet50(weights=None, classes=10)
            self.loss = tf.keras.losses.SparseCategoricalCrossentropy(
                from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
            self.optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)

    def train_step(self, image, label):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(self.loss(label, self.model(image, training=True)))
        gradients = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))

    def loop_train(self, train_dataset):
        for epoch in range(self.epochs):
            for image, label in train_dataset:
                self.train_step(image, label)  # expect: TFS012
