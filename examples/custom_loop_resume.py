"""Correct: a custom training loop with `strategy.run`, resumed from the latest checkpoint.

Everything that owns variables, including the checkpoint, is created in the scope, and the
restore happens there too, as in the official tutorial (before TensorFlow 2.5 a restore right
after construction created the optimizer's slot variables under the strategy current there).
"""

import tensorflow as tf

EPOCHS = 5
BATCH_SIZE_PER_REPLICA = 128
CHECKPOINT_DIR = "checkpoints/fashion_mnist"

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

(train_images, train_labels), (test_images, test_labels) = tf.keras.datasets.fashion_mnist.load_data()
train_dataset = (
    tf.data.Dataset.from_tensor_slices((train_images[..., None] / 255.0, train_labels))
    .shuffle(60_000)
    .batch(GLOBAL_BATCH_SIZE)
)
test_dataset = tf.data.Dataset.from_tensor_slices((test_images[..., None] / 255.0, test_labels)).batch(GLOBAL_BATCH_SIZE)
train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)
test_dist_dataset = strategy.experimental_distribute_dataset(test_dataset)


def create_model() -> tf.keras.Model:
    return tf.keras.Sequential([
        tf.keras.Input(shape=(28, 28, 1)),
        tf.keras.layers.Conv2D(32, 3, activation="relu"),
        tf.keras.layers.MaxPooling2D(),
        tf.keras.layers.Flatten(),
        tf.keras.layers.Dense(64, activation="relu"),
        tf.keras.layers.Dense(10),
    ])


with strategy.scope():
    # no reduction: the per-example losses are averaged over the global batch below
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="test_accuracy")
    model = create_model()
    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    manager = tf.train.CheckpointManager(checkpoint, CHECKPOINT_DIR, max_to_keep=3)
    checkpoint.restore(manager.latest_checkpoint)


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        predictions = model(images, training=True)
        per_example_loss = loss_object(labels, predictions)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, predictions)
    return loss


def test_step(inputs):
    images, labels = inputs
    test_accuracy.update_state(labels, model(images, training=False))


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


@tf.function
def distributed_test_step(inputs):
    strategy.run(test_step, args=(inputs,))


for epoch in range(EPOCHS):
    total_loss, num_batches = 0.0, 0
    for batch in train_dist_dataset:
        total_loss += distributed_train_step(batch)
        num_batches += 1
    for batch in test_dist_dataset:
        distributed_test_step(batch)
    manager.save()
    print(
        f"epoch {epoch + 1}: loss {total_loss / num_batches:.4f}, "
        f"train accuracy {train_accuracy.result():.3f}, test accuracy {test_accuracy.result():.3f}"
    )
    train_accuracy.reset_state()
    test_accuracy.reset_state()
