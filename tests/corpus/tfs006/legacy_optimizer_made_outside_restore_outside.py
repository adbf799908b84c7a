"""A legacy OptimizerV2 made outside the scope belongs to no strategy. Compiled with a model of
the scope it would make its slots at the first step, in the replica, but a restore before that
step makes them at the restore, under the default strategy, for mirrored variables: "Trying to
create optimizer slot variable under the scope for tf.distribute.Strategy" (tf-keras
keras/distribute/checkpointing_test.py, testCheckpointRestoreOptimizerSlots)."""
import tensorflow as tf

optimizer = tf.keras.optimizers.legacy.Adam(1e-3)
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")

model.load_weights("checkpoints/ckpt-40")  # expect: TFS006
model.fit(tf.random.normal((64, 16)), tf.random.normal((64, 1)), epochs=2)
