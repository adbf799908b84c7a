"""A trainer base class whose `scope()` enters `self.strategy.scope()` only `if hasattr(self,
"strategy")`, set by `distribute_with(strategy)`, which users call before `train()`. The subclass's
`train()` builds the optimizer in that scope, and its loop then calls the step directly instead of
through `strategy.run`."""
import tensorflow as tf


class EmptyContextManager:
    def __enter__(self):
        return self

    def __exit__(self, *args):
        return False


class GenericExtractor:
    def __init__(self, logdir, strategy=None):
        self.logdir = logdir
        self.strategy = strategy

    def distribute_with(self, strategy):
        self.strategy = strategy

    def scope(self):
        if hasattr(self, "strategy") and self.strategy is not None:
            return self.strategy.scope()
        return EmptyContextManager()

    def _build_optimizer(self, lr):
        with self.scope():
            optimizer = tf.keras.optimizers.Adam(lr)
        return optimizer


def _build_rotation_training_step(model, optimizer):
    @tf.function
    def training_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True)))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return {"loss": loss}

    return training_step


class RotationTrainer(GenericExtractor):
    def __init__(self, logdir, dataset, lr=1e-3):
        self.logdir = logdir
        self._ds = dataset
        self._lr = lr

    def train(self, epochs=1):
        with self.scope():
            inputs = tf.keras.layers.Input((32, 32, 3))
            net = tf.keras.layers.Conv2D(16, 3, activation="relu")(inputs)
            net = tf.keras.layers.GlobalAvgPool2D()(net)
            outputs = tf.keras.layers.Dense(4, activation="softmax")(net)
            full_model = tf.keras.Model(inputs, outputs)
        self._optimizer = self._build_optimizer(self._lr)
        self._training_step = _build_rotation_training_step(full_model, self._optimizer)
        for _ in range(epochs):
            for x, y in self._ds:
                lossdict = self._training_step(x, y)  # expect: TFS012
        return lossdict
