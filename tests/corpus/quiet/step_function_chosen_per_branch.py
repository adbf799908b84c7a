"""The step function is picked with the strategy (the profiler tests' shape): the direct step
runs only on the path without a strategy, where the model and optimizer are plain too."""
import tensorflow as tf


def train_step(model, optimizer, images, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, model(images)))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def distributed_train_step(model, optimizer, images, labels, strategy):
    losses = strategy.run(train_step, args=(model, optimizer, images, labels))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


def training_loop(model, optimizer, dataset, step_func, strategy):
    for images, labels in dataset:
        if strategy:
            step_func(model, optimizer, images, labels, strategy)
        else:
            step_func(model, optimizer, images, labels)


def build_model():
    return tf.keras.Sequential([tf.keras.Input((28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])


def run(use_mirrored_strategy, dataset):
    if use_mirrored_strategy:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()
        step_func = distributed_train_step
        dataset = strategy.experimental_distribute_dataset(dataset)
    else:
        strategy = None
        model = build_model()
        optimizer = tf.keras.optimizers.Adam()
        step_func = train_step
    training_loop(model, optimizer, dataset, step_func, strategy)
