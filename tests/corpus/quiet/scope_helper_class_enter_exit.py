"""A context manager class that enters the strategy's scope when there is one (the tf-keras test
utilities' shape)."""
import tensorflow as tf


class MaybeDistributionScope:
    """Enters the distribution scope if one is given."""

    def __init__(self, distribution):
        self._distribution = distribution
        self._scope = None

    def __enter__(self):
        if self._distribution:
            self._scope = self._distribution.scope()
            self._scope.__enter__()

    def __exit__(self, exc_type, value, traceback):
        if self._distribution:
            self._scope.__exit__(exc_type, value, traceback)
            self._scope = None


def train(x, y):
    distribution = tf.distribute.MirroredStrategy()
    with MaybeDistributionScope(distribution):
        model = tf.keras.Sequential([tf.keras.layers.Dense(4, input_shape=(3,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse", metrics=[tf.keras.metrics.MeanAbsoluteError()])
    model.fit(x, y, epochs=2)
