"""Trainer of the seqtrain models: Keras `fit`, or a custom loop under a strategy.

The loss is built with reduction NONE exactly when a strategy is given and `keras_fit` is off;
the training script always says `keras_fit=True`, and still takes the custom loop when asked,
so the default-reduction losses are called per replica."""
import tensorflow as tf


def parse_loss(loss_label, strategy=None, keras_fit=True):
    if strategy is not None and not keras_fit:
        if loss_label == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        else:
            loss_fn = tf.keras.losses.Poisson(reduction=tf.keras.losses.Reduction.NONE)
    else:
        if loss_label == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError()  # expect: TFS013
        else:
            loss_fn = tf.keras.losses.Poisson()  # expect: TFS013
    return loss_fn


class Trainer:
    def __init__(self, params, train_data, strategy=None, keras_fit=False):
        self.params = params
        self.train_data = train_data
        self.strategy = strategy
        self.batch_size = params["batch_size"]
        self.loss_fn = parse_loss(params.get("loss", "poisson"), self.strategy, keras_fit)
        self.optimizer = tf.keras.optimizers.Adam(params.get("learning_rate", 1e-3))

    def fit_keras(self, model):
        model.compile(optimizer=self.optimizer, loss=self.loss_fn)
        model.fit(self.train_data, epochs=self.params.get("epochs", 10))

    def fit_tape(self, model):
        def train_step(x, y):
            with tf.GradientTape() as tape:
                pred = model(x, training=True)
                loss = tf.nn.compute_average_loss(self.loss_fn(y, pred), global_batch_size=self.batch_size)
            gradients = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            return loss

        @tf.function
        def train_step_distr(xd, yd):
            replica_losses = self.strategy.run(train_step, args=(xd, yd))
            return self.strategy.reduce(tf.distribute.ReduceOp.SUM, replica_losses, axis=None)

        for epoch in range(self.params.get("epochs", 10)):
            for xd, yd in self.strategy.experimental_distribute_dataset(self.train_data):
                train_step_distr(xd, yd)
