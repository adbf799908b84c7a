"""A library module's evaluator: its metrics are made in `__init__`, and `run` updates them in
steps of the strategy it was handed. Whether the caller built it inside `strategy.scope()` (the
training script does) cannot be seen from here, so nothing is claimed."""
import tensorflow as tf


class Evaluation:
    def __init__(self, model, strategy, dataset, loss_object, batch_size):
        self.test_loss = tf.keras.metrics.Mean(name="test_loss")
        self.test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")

        def eval_step(images, labels):
            pred = model(images, training=False)
            self.test_loss.update_state(loss_object(labels, pred) / batch_size)
            self.test_accuracy.update_state(labels, pred)

        @tf.function
        def eval_step_dist(images, labels):
            strategy.run(eval_step, args=(images, labels))

        self.dataset = dataset
        self.step = eval_step_dist

    def run(self):
        for images, labels in self.dataset:
            self.step(images, labels)
        accuracy = self.test_accuracy.result().numpy()
        self.test_loss.reset_states()
        self.test_accuracy.reset_states()
        return accuracy
