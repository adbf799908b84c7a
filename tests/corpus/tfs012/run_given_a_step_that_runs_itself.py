"""The loop hands `distributed_train_step` to `strategy.run`, but that function already runs
the replica step through `strategy.run`: the inner call is in replica context, where TensorFlow
raises "Method requires being in cross-replica context" (calling either function directly fixes it)."""
import tensorflow as tf

GLOBAL_BATCH = 64
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(64, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.01)


def train_step(features, targets):
    with tf.GradientTape() as tape:
        per_example = tf.square(model(features, training=True) - targets)
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH)
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, targets):
    per_replica = strategy.run(train_step, args=(features, targets))  # expect: TFS012
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)


dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((tf.random.normal((1024, 32)), tf.random.normal((1024, 1))))
    .batch(GLOBAL_BATCH))
for features, targets in dataset:
    strategy.run(distributed_train_step, args=(features, targets))
