import tensorflow as tf
from tensorflow import keras

GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(10,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()


@tf.function
def train_step(features, targets):
    with tf.GradientTape() as tape:
        per_example_loss = tf.square(model(features, training=True) - targets)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((640, 10)), tf.random.normal((640, 1))))
dist_dataset = strategy.experimental_distribute_dataset(dataset.batch(GLOBAL_BATCH_SIZE))

with strategy.scope():
    for features, targets in dist_dataset:
        # cross-replica context: "apply_gradients() cannot be called in cross-replica context"
        loss = train_step(features, targets)  # expect: TFS012
