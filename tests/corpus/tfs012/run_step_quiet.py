import tensorflow as tf

GLOBAL_BATCH_SIZE = 32
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


def train_step(features, labels):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, model(features))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, labels):
    per_replica_losses = strategy.run(train_step, args=(features, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


features = tf.random.normal((GLOBAL_BATCH_SIZE, 4))
labels = tf.random.uniform((GLOBAL_BATCH_SIZE,), maxval=2, dtype=tf.int32)
with strategy.scope():
    for epoch in range(10):
        distributed_train_step(features, labels)
