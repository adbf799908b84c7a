"""A trainer that builds under its strategy but resumes outside it.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
import tensorflow as tf


def build_model():
    return tf.keras.Sequential([tf.keras.layers.Dense(32, activation="relu", input_shape=(16,)), tf.keras.layers.Dense(1)])


class Trainer:
    """Builds everything under the strategy it is given (or the current one)."""

    def __init__(self, strategy=None, model_dir="checkpoints/trainer"):
        self.strategy = strategy or tf.distribute.get_strategy()
        self.model_dir = model_dir
        with self.strategy.scope():
            self._model = build_model()
            self._optimizer = tf.keras.optimizers.Adam(1e-3)
            self._checkpoint = tf.train.Checkpoint(model=self._model, optimizer=self._optimizer)
        self._manager = tf.train.CheckpointManager(self._checkpoint, model_dir, max_to_keep=3)

    def maybe_restore(self):
        if self._manager.latest_checkpoint:
            self._checkpoint.restore(self._manager.latest_checkpoint)  # expect: TFS006

    def restore_in_scope(self):
        with self.strategy.scope():
            self._checkpoint.restore(self._manager.latest_checkpoint)
