"""TensorFlow 2.4 (requirements.txt): OptimizerV2 makes the slots a restore needs under the strategy
current there: outside the scope, the default one, which raises for mirrored variables."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(4)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
manager = tf.train.CheckpointManager(checkpoint, "checkpoints", max_to_keep=3)
checkpoint.restore(manager.latest_checkpoint)  # expect: TFS006
