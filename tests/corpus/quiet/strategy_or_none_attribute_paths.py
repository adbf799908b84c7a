"""A trainer (lczero-training's shape) keeps `self.strategy`: a MirroredStrategy for all GPUs, else
None. Everything made or run under `if self.strategy is not None:` and its `else` stays on its
own path: the default-reduction loss and the direct step exist only where there is no strategy."""
import tensorflow as tf


class P:
    def __init__(self, cfg):
        if cfg["gpu"] == "all":
            self.strategy = tf.distribute.MirroredStrategy()
        else:
            self.strategy = None
        if self.strategy is not None:
            with self.strategy.scope():
                self.init_net()
        else:
            self.init_net()

    def init_net(self):
        self.model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
        self.optimizer = tf.keras.optimizers.SGD(0.1)

        def moves_left_loss(target, output):
            if self.strategy is not None:
                huber = tf.keras.losses.Huber(1.0, reduction=tf.keras.losses.Reduction.NONE)
            else:
                huber = tf.keras.losses.Huber(1.0)
            return tf.reduce_mean(huber(target, output))
        self.loss_fn = moves_left_loss

    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = self.loss_fn(y, self.model(x))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))

    def process(self, x, y):
        if self.strategy is not None:
            self.strategy.run(self.step, args=(x, y))
        else:
            self.step(x, y)


P({"gpu": "all"}).process(1, 2)
