"""Trainer of the seqtrain models: one loop, whose step functions are defined for the strategy given.

With no strategy the losses keep their default reduction and the step is a plain `tf.function`;
with one (and `keras_fit` off) they reduce nothing and the step runs per replica, averaged over
the global batch. The per-replica step exists only where a strategy was given."""
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
    def __init__(self, params, train_data, out_dir, strategy=None, num_gpu=1, keras_fit=False):
        self.params = params
        self.train_data = train_data
        self.out_dir = out_dir
        self.strategy = strategy
        self.num_gpu = num_gpu
        self.batch_size = params["batch_size"]
        self.loss_fn = parse_loss(params.get("loss", "poisson"), self.strategy, keras_fit)
        self.optimizer = tf.keras.optimizers.Adam(params.get("learning_rate", 1e-3))

    def fit_tape(self, model):
        train_loss = tf.keras.metrics.Mean(name="train_loss")

        if self.strategy is None:

            @tf.function
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    pred = model(x, training=True)
                    loss = self.loss_fn(y, pred) + sum(model.losses)
                train_loss(loss)
                gradients = tape.gradient(loss, model.trainable_variables)
                self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))

        else:

            def train_step(x, y):
                with tf.GradientTape() as tape:
                    pred = model(x, training=True)
                    loss_batch_len = self.loss_fn(y, pred)
                    loss_batch = tf.reduce_mean(loss_batch_len, axis=-1)
                    loss = tf.reduce_sum(loss_batch) / self.batch_size
                    loss += sum(model.losses) / self.num_gpu
                gradients = tape.gradient(loss, model.trainable_variables)
                self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
                return loss

            @tf.function
            def train_step_distr(xd, yd):
                replica_losses = self.strategy.run(train_step, args=(xd, yd))
                loss = self.strategy.reduce(tf.distribute.ReduceOp.SUM, replica_losses, axis=None)
                train_loss(loss)

        for epoch in range(self.params.get("epochs", 10)):
            for x, y in self.train_data:
                if self.strategy is None:
                    train_step(x, y)
                else:
                    train_step_distr(x, y)
            model.save_weights(f"{self.out_dir}/model_check.h5")
