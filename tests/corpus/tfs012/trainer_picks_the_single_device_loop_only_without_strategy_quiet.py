"""A genomics trainer (basenji/baskerville style): one class serves single-GPU and multi-GPU runs and
picks its loop by whether it was handed a strategy. The multi-GPU script always hands it one, so
the single-device loop, which calls the step directly, never runs under the MirroredStrategy."""
import argparse

import tensorflow as tf


class Trainer:
    def __init__(self, params, train_data, out_dir, strategy=None):
        self.params = params
        self.train_data = train_data
        self.out_dir = out_dir
        self.strategy = strategy
        self.loss_fn = tf.keras.losses.Poisson(reduction=tf.keras.losses.Reduction.NONE)

    def compile(self, model):
        self.optimizer = tf.keras.optimizers.Adam(self.params["learning_rate"])
        model.compile(optimizer=self.optimizer, loss=self.loss_fn)

    def fit_tape(self, model):
        if self.strategy is None:

            @tf.function
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    pred = model(x, training=True)
                    loss = tf.reduce_mean(self.loss_fn(y, pred)) + sum(model.losses)
                gradients = tape.gradient(loss, model.trainable_variables)
                self.optimizer.apply_gradients(zip(gradients, model.trainable_variables))
                return loss

            for x, y in self.train_data:
                train_step(x, y)
        else:

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
    parser.add_argument("--out_dir", default="train_out")
    args = parser.parse_args()
    params = {"learning_rate": 1e-3, "batch_size": 64}
    x = tf.random.normal((256, 1024, 4))
    y = tf.random.uniform((256, 1024, 1))
    train_data = tf.data.Dataset.from_tensor_slices((x, y)).batch(params["batch_size"])

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = build_model(1024)
        trainer = Trainer(params, train_data, args.out_dir, strategy)
        trainer.compile(model)
    trainer.fit_tape(model)


if __name__ == "__main__":
    main()
