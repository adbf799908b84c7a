"""A TTS trainer (TensorFlow 2.7, Keras 2): the script builds the model and its optimizer in the
MirroredStrategy scope, then the trainer wraps the optimizer for mixed precision outside it. Keras
2's LossScaleOptimizer hands iterations, slots and checkpointing to the optimizer it wraps, and
updates its two loss-scale scalars once per step in cross-replica context: this works."""
import tensorflow as tf
import tf_keras as keras

STRATEGY = tf.distribute.MirroredStrategy()


class Trainer:
    def __init__(self, strategy, is_mixed_precision: bool):
        self._strategy = strategy
        self._is_mixed_precision = is_mixed_precision

    def compile(self, model, optimizer):
        self._model = model
        self._optimizer = optimizer
        if self._is_mixed_precision:
            self._optimizer = keras.mixed_precision.LossScaleOptimizer(self._optimizer, dynamic=True)

    def create_checkpoint_manager(self, saved_path: str):
        with self._strategy.scope():
            self.ckpt = tf.train.Checkpoint(model=self._model, optimizer=self._optimizer)
            self.manager = tf.train.CheckpointManager(self.ckpt, saved_path, max_to_keep=5)

    def _one_step_forward(self, mels, targets):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.abs(self._model(mels, training=True) - targets), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=32)
            scaled = self._optimizer.get_scaled_loss(loss) if self._is_mixed_precision else loss
        gradients = tape.gradient(scaled, self._model.trainable_variables)
        if self._is_mixed_precision:
            gradients = self._optimizer.get_unscaled_gradients(gradients)
        self._optimizer.apply_gradients(zip(gradients, self._model.trainable_variables))
        return loss

    @tf.function
    def train_step(self, mels, targets):
        return self._strategy.run(self._one_step_forward, args=(mels, targets))


trainer = Trainer(strategy=STRATEGY, is_mixed_precision=True)
with STRATEGY.scope():
    model = keras.Sequential([keras.Input(shape=(80,)), keras.layers.Dense(256), keras.layers.Dense(80)])
    optimizer = keras.optimizers.Adam(1e-3)
trainer.compile(model=model, optimizer=optimizer)
trainer.create_checkpoint_manager("checkpoints/")
trainer.train_step(tf.zeros((32, 80)), tf.zeros((32, 80)))
