import time

import tensorflow as tf

TEST_SPLITS = ["in_domain_test", "ood_test"]
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, classes=5)
    optimizer = tf.keras.optimizers.SGD(0.01, momentum=0.9)
    metrics = {
        "train/loss": tf.keras.metrics.Mean(),
        "train/accuracy": tf.keras.metrics.SparseCategoricalAccuracy(),
    }

# host-side timers, one per split: updated outside `strategy.run` only
for test_split in TEST_SPLITS:
    metrics.update({f"{test_split}/ms_per_example": tf.keras.metrics.Mean()})


@tf.function
def train_step(iterator):
    def step_fn(inputs):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = tf.nn.compute_average_loss(
                tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True),
                global_batch_size=128)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        metrics["train/loss"].update_state(loss)
        metrics["train/accuracy"].update_state(labels, logits)

    strategy.run(step_fn, args=(next(iterator),))


def evaluate(split, dataset, batch_size):
    start = time.time()
    for images, _ in dataset:
        model(images, training=False)
    metrics[f"{split}/ms_per_example"].update_state((time.time() - start) * 1e6 / batch_size)
