import tensorflow as tf

cluster_resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.ParameterServerStrategy(cluster_resolver)
coordinator = tf.distribute.coordinator.ClusterCoordinator(strategy)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adagrad(learning_rate=0.1)


def dataset_fn(_):
    return tf.data.Dataset.from_tensor_slices((tf.random.normal((64, 10)), tf.random.normal((64, 1)))).repeat().batch(8)


per_worker_dataset = coordinator.create_per_worker_dataset(dataset_fn)
per_worker_iterator = iter(per_worker_dataset)


@tf.function
def step_fn(iterator):
    def replica_fn(batch):
        features, targets = batch
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.square(model(features) - targets))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
        return loss

    losses = strategy.run(replica_fn, args=(next(iterator),))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


for _ in range(10):
    coordinator.schedule(step_fn, args=(per_worker_iterator,))
coordinator.join()
