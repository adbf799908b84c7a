"""A step factory returns the distributed step when there is a strategy and the plain one
otherwise (the YOLO trainers' `get_train_step_fn`); each is used with objects of its own path."""
# corpus: keras-version=2
import tensorflow as tf


def get_train_step_fn(strategy):
    @tf.function
    def train_step(images, labels, model, optimizer):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(images, training=True) - labels))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    @tf.function
    def distributed_train_step(images, labels, model, optimizer):
        losses = strategy.run(train_step, args=(images, labels, model, optimizer))
        return strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=None)

    if strategy != None:
        return distributed_train_step
    return train_step


def fit_one_epoch(model, optimizer, dataset, strategy):
    step = get_train_step_fn(strategy)
    for images, labels in dataset:
        step(images, labels, model, optimizer)


if __name__ == "__main__":
    gpus = tf.config.list_physical_devices("GPU")
    if len(gpus) > 1:
        strategy = tf.distribute.MirroredStrategy()
    else:
        strategy = None

    if len(gpus) > 1:
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    else:
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
    # a legacy OptimizerV2 makes its slots where it first steps: in the replicas when distributed
    optimizer = tf.keras.optimizers.legacy.SGD(0.01)

    dataset = tf.data.Dataset.from_tensor_slices((tf.zeros((8, 4)), tf.zeros((8, 1)))).batch(4)
    if len(gpus) > 1:
        dataset = strategy.experimental_distribute_dataset(dataset)
    fit_one_epoch(model, optimizer, dataset, strategy)
