import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)

# host-side bookkeeping: an epoch counter, the manager, a metric updated on the coordinator
epoch = tf.Variable(0, dtype=tf.int64, trainable=False)
manager = tf.train.CheckpointManager(checkpoint, directory="ckpts", max_to_keep=3)
epoch_loss = tf.keras.metrics.Mean(name="epoch_loss")


def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.square(model(features) - targets), global_batch_size=64)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, targets):
    per_replica = strategy.run(train_step, args=(features, targets))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


features, targets = tf.random.normal((64, 8)), tf.random.normal((64, 1))
while epoch < 5:
    epoch_loss.update_state(distributed_train_step(features, targets))
    epoch.assign_add(1)
    manager.save()
    print(int(epoch), float(epoch_loss.result()))
