"""A GAN trainer for Keras 2 (`get_scaled_loss` is OptimizerV2's LossScaleOptimizer API; nothing
names the TensorFlow release): both optimizers are made in the scope. Before TensorFlow 2.5 the
restore would make their slots under the default strategy; from 2.5 OptimizerV2's `add_slot`
enters the strategy the optimizer was made in, and the 2.11+ optimizers make theirs at `build`.
tfscope takes the newest TensorFlow the evidence admits."""
import tensorflow as tf
from tensorflow.keras import mixed_precision, optimizers

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    generator = tf.keras.Sequential([tf.keras.Input((128,)), tf.keras.layers.Dense(256)])
    discriminator = tf.keras.Sequential([tf.keras.Input((256,)), tf.keras.layers.Dense(1)])
    optimizer_g = mixed_precision.LossScaleOptimizer(optimizers.RMSprop(2e-4))
    optimizer_d = mixed_precision.LossScaleOptimizer(optimizers.RMSprop(2e-4))
    checkpoint = tf.train.Checkpoint(generator=generator, discriminator=discriminator,
                                     optimizer_g=optimizer_g, optimizer_d=optimizer_d)

manager = tf.train.CheckpointManager(checkpoint, "checkpoints", max_to_keep=2)
checkpoint.restore(manager.latest_checkpoint)


def train_step(noise):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(discriminator(generator(noise)))
        scaled = optimizer_g.get_scaled_loss(loss)
    gradients = optimizer_g.get_unscaled_gradients(tape.gradient(scaled, generator.trainable_variables))
    optimizer_g.apply_gradients(zip(gradients, generator.trainable_variables))
    return loss


@tf.function
def distributed_step(noise):
    return strategy.run(train_step, args=(noise,))
