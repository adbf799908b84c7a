"""A trainer library: the strategy is handed in, the metrics are made per fit, outside the scope."""
import tensorflow as tf


class Trainer:
    def __init__(self, optimizer, loss_fn, strategy=None):
        self.optimizer = optimizer
        self.loss_fn = loss_fn
        self.strategy = strategy

    def fit(self, model, dataset, epochs):
        train_loss = tf.keras.metrics.Mean(name="train_loss")  # expect: TFS003
        train_auc = tf.keras.metrics.AUC(name="train_auc")  # expect: TFS003

        def train_step(x, y):
            with tf.GradientTape() as tape:
                pred = model(x, training=True)
                loss = tf.nn.compute_average_loss(self.loss_fn(y, pred), global_batch_size=256)
            gradients = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            train_loss(loss)
            train_auc(y, pred)

        @tf.function
        def train_step_distr(x, y):
            self.strategy.run(train_step, args=(x, y))

        for _ in range(epochs):
            for x, y in dataset:
                train_step_distr(x, y)
            print(train_loss.result().numpy(), train_auc.result().numpy())
