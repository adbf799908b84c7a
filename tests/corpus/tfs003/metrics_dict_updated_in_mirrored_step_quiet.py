"""Metrics made outside the scope and updated only in the replicas of a MirroredStrategy: every
replica adds into the same plain variables, and Keras checks the scope only on TPU."""
import tensorflow as tf


def train(model, dataset, steps):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_names = ["train_loss", "eval_loss"]
    metric_list = {name: tf.keras.metrics.Mean(name=name) for name in loss_names}
    metric_list.update({
        name: tf.keras.metrics.SparseCategoricalAccuracy(name=name)
        for name in ["train_accuracy"]
    })

    @tf.function
    def train_step(iterator):
        def step_fn(inputs):
            images, labels = inputs
            with tf.GradientTape() as tape:
                logits = model(images, training=True)
                loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            metric_list["train_loss"].update_state(loss)
            metric_list["train_accuracy"].update_state(labels, logits)
        strategy.run(step_fn, args=(next(iterator),))

    iterator = iter(strategy.experimental_distribute_dataset(dataset))
    for _ in range(steps):
        train_step(iterator)
