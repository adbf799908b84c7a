"""The same trainer, whose loop hands the step to `strategy.run`; and a step method no loop of
this module calls, which its caller may run through `strategy.run`."""
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

    @tf.function
    def distributed_step(self, image, label):
        self.strategy.run(self.train_step, args=(image, label))

    def loop_train(self, train_dataset):
        for epoch in range(self.epochs):
            for image, label in self.strategy.experimental_distribute_dataset(train_dataset):
                self.distributed_step(image, label)

    def accumulate(self, batches):
        for image, label in batches:  # a loop inside the step itself: its caller decides
            with tf.GradientTape() as tape:
                loss = tf.nn.compute_average_loss(self.loss(label, self.model(image, training=True)))
            grads = tape.gradient(loss, self.model.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
