import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(16,)), tf.keras.layers.Dense(4)])
    model.compile(optimizer=tf.keras.optimizers.legacy.Adam(1e-3), loss="mse")
    checkpoint = tf.train.Checkpoint(model=model, optimizer=model.optimizer)

# a legacy OptimizerV2 made in the scope creates the slots this restore needs under its own
# strategy (`add_slot` enters `_distribution_strategy_scope`), so resuming here is fine
checkpoint.restore(tf.train.latest_checkpoint("checkpoints"))
model.fit(tf.random.normal((64, 16)), tf.random.normal((64, 4)), epochs=1)
