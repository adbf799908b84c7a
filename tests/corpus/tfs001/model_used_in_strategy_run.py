import tensorflow as tf
from tensorflow import keras

GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()

model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])  # expect: TFS001

with strategy.scope():
    optimizer = keras.optimizers.SGD(learning_rate=0.01)


def train_step(inputs):
    features, targets = inputs
    with tf.GradientTape() as tape:
        per_example_loss = tf.square(model(features, training=True) - targets)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(inputs):
    per_replica_losses = strategy.run(train_step, args=(inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((256, 8)), tf.random.normal((256, 1))))
for batch in strategy.experimental_distribute_dataset(dataset.batch(GLOBAL_BATCH_SIZE)):
    distributed_train_step(batch)
