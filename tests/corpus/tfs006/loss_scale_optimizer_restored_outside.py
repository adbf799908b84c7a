"""TF 2.1-2.3 mixed precision: the optimizers are wrapped in the experimental LossScaleOptimizer
inside the scope, and the checkpoint tracking them is restored outside it before any step.
Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy).
"""
# corpus: keras-version=2
import tensorflow as tf
from tensorflow.keras.mixed_precision import experimental as mixed_precision

policy = mixed_precision.Policy("mixed_float16")
mixed_precision.set_policy(policy)
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    generator = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(64)])
    generator_optimizer = tf.keras.optimizers.Adam(1e-4)
    generator_optimizer = mixed_precision.LossScaleOptimizer(generator_optimizer, loss_scale="dynamic")

checkpoint = tf.train.Checkpoint(step=tf.Variable(1), generator=generator, generator_optimizer=generator_optimizer)  # expect: TFS005
manager = tf.train.CheckpointManager(checkpoint, "./checkpoints", max_to_keep=3)
checkpoint.restore(manager.latest_checkpoint)  # expect: TFS006
