"""Buggy: a custom training loop with two strategy mistakes, each fatal or silently wrong.

Each mistake is marked where tfscope reports it.
"""

import os

# Keras 2 (tf_keras) on TensorFlow 2.16 and later; must be set before TensorFlow is imported
os.environ["TF_USE_LEGACY_KERAS"] = "1"

import tensorflow as tf

GLOBAL_BATCH_SIZE = 256
EPOCHS = 3

strategy = tf.distribute.MirroredStrategy()

x = tf.random.normal((4096, 64))
y = tf.random.uniform((4096,), maxval=10, dtype=tf.int32)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).shuffle(4096).batch(GLOBAL_BATCH_SIZE)
dist_dataset = strategy.experimental_distribute_dataset(dataset)

with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(64,)),
        tf.keras.layers.Dense(256, activation="relu"),
        tf.keras.layers.Dense(10),
    ])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
    train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(name="train_accuracy")
    # BUG TFS013: Keras 2 raises "Please use tf.keras.losses.Reduction.SUM or ... NONE" when a loss
    # with the default reduction is called in a step run by strategy.run (Keras 3 before 3.8
    # silently averages per replica); use reduction="none" and tf.nn.compute_average_loss.
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    manager = tf.train.CheckpointManager(checkpoint, "checkpoints/custom_loop", max_to_keep=2)
    checkpoint.restore(manager.latest_checkpoint)


@tf.function
def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        logits = model(features, training=True)
        loss = loss_object(labels, logits)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    train_accuracy.update_state(labels, logits)
    return loss


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


for epoch in range(EPOCHS):
    for batch in dist_dataset:
        distributed_train_step(batch)
    manager.save()
    print(f"epoch {epoch + 1}: accuracy {train_accuracy.result():.3f}")
    train_accuracy.reset_state()

# a last pass on the final batch of the plain dataset, "just to check"
with strategy.scope():
    for batch in dataset.take(1):
        # BUG TFS012: calling the step directly runs apply_gradients in cross-replica context;
        # only strategy.run enters replica context.
        train_step(batch)
