# corpus: keras-version=2
# The loss helper picks per-example losses only for Keras fit: the custom distributed loop gets
# the default-reduction losses, because the test is the wrong way round.
import argparse

import tensorflow as tf


def make_loss(name, strategy=None, keras_fit=True):
    if strategy is None or keras_fit:
        if name == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError(reduction=tf.keras.losses.Reduction.NONE)
        else:
            loss_fn = tf.keras.losses.Poisson(reduction=tf.keras.losses.Reduction.NONE)
    else:
        if name == "mse":
            loss_fn = tf.keras.losses.MeanSquaredError()  # expect: TFS013
        else:
            loss_fn = tf.keras.losses.Poisson()  # expect: TFS013
    return loss_fn


class Trainer:
    def __init__(self, model, loss_name, strategy=None, keras_fit=True):
        self.model = model
        self.strategy = strategy
        self.optimizer = tf.keras.optimizers.Adam()
        self.loss_fn = make_loss(loss_name, self.strategy, keras_fit)

    def fit_keras(self, dataset):
        self.model.compile(loss=self.loss_fn, optimizer=self.optimizer)
        self.model.fit(dataset, epochs=3)

    def fit_custom(self, dataset):
        if self.strategy is None:
            @tf.function
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    loss = self.loss_fn(y, self.model(x, training=True))
                grads = tape.gradient(loss, self.model.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
            for x, y in dataset:
                train_step(x, y)
        else:
            def train_step(x, y):
                with tf.GradientTape() as tape:
                    per_example = self.loss_fn(y, self.model(x, training=True))
                    loss = tf.nn.compute_average_loss(per_example, global_batch_size=64)
                grads = tape.gradient(loss, self.model.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))

            @tf.function
            def distributed_step(x, y):
                self.strategy.run(train_step, args=(x, y))

            for x, y in self.strategy.experimental_distribute_dataset(dataset):
                distributed_step(x, y)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--loss", default="mse")
    parser.add_argument("--keras_fit", action="store_true")
    args = parser.parse_args()
    dataset = tf.data.Dataset.from_tensor_slices(([[1.0]] * 64, [[1.0]] * 64)).batch(64)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        trainer = Trainer(model, args.loss, strategy, args.keras_fit)
    if args.keras_fit:
        trainer.fit_keras(dataset)
    else:
        trainer.fit_custom(dataset)


if __name__ == "__main__":
    main()
