# corpus: keras-version=2
"""A genomics trainer (basenji/baskerville style) that serves both `fit` and a custom loop: the loss
is built with reduction NONE exactly when a strategy is given and `keras_fit` is off, and the
script takes the custom loop exactly when `keras_fit` is off. The default-reduction losses only
ever reach `compile`, which exempts them."""
import argparse

import tensorflow as tf


def parse_loss(loss_label, strategy=None, keras_fit=True):
    if strategy is not None and not keras_fit:
        if loss_label == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        else:
            loss_fn = tf.keras.losses.Poisson(reduction=tf.keras.losses.Reduction.NONE)
    else:
        if loss_label == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError()
        else:
            loss_fn = tf.keras.losses.Poisson()
    return loss_fn


class Trainer:
    def __init__(self, params, train_data, strategy=None, keras_fit=False):
        self.params = params
        self.train_data = train_data
        self.strategy = strategy
        self.loss_fn = parse_loss(params.get("loss", "poisson"), self.strategy, keras_fit)
        self.optimizer = tf.keras.optimizers.Adam(params.get("learning_rate", 1e-3))

    def fit_keras(self, model):
        model.compile(optimizer=self.optimizer, loss=self.loss_fn)
        model.fit(self.train_data, epochs=self.params.get("epochs", 10))

    def fit_tape(self, model):
        def train_step(x, y):
            with tf.GradientTape() as tape:
                pred = model(x, training=True)
                loss = tf.nn.compute_average_loss(self.loss_fn(y, pred), global_batch_size=self.params["batch_size"])
            gradients = tape.gradient(loss, model.trainable_variables)
            self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
            return loss

        @tf.function
        def train_step_distr(xd, yd):
            replica_losses = self.strategy.run(train_step, args=(xd, yd))
            return self.strategy.reduce(tf.distribute.ReduceOp.SUM, replica_losses, axis=None)

        for xd, yd in self.strategy.experimental_distribute_dataset(self.train_data):
            train_step_distr(xd, yd)


def build_model(seq_length):
    inputs = tf.keras.Input(shape=(seq_length, 4))
    x = tf.keras.layers.Conv1D(64, 15, activation="relu")(inputs)
    outputs = tf.keras.layers.Dense(1, activation="softplus")(x)
    return tf.keras.Model(inputs, outputs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--keras_fit", action="store_true")
    args = parser.parse_args()
    params = {"loss": "poisson", "learning_rate": 1e-3, "batch_size": 64, "epochs": 10}
    x = tf.random.normal((256, 1024, 4))
    y = tf.random.uniform((256, 1024, 1))
    train_data = tf.data.Dataset.from_tensor_slices((x, y)).batch(params["batch_size"])

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = build_model(1024)
        trainer = Trainer(params, train_data, strategy, args.keras_fit)

    if args.keras_fit:
        trainer.fit_keras(model)
    else:
        trainer.fit_tape(model)


if __name__ == "__main__":
    main()
