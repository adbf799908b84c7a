"""TensorFlow 2.9 (requirements.txt): an OptimizerV2 made in the scope makes its slots under that
strategy wherever they are made, so restoring its checkpoint outside the scope is fine."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, "checkpoints", max_to_keep=3)
checkpoint.restore(manager.latest_checkpoint)
