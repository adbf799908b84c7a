import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)

manager = tf.train.CheckpointManager(checkpoint, directory="checkpoints", max_to_keep=5)

# an export copy that never meets the strategy: its checkpoint may live anywhere
export_model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
export_checkpoint = tf.train.Checkpoint(model=export_model)
export_checkpoint.write("export/ckpt")
manager.save()
