"""A subclassed model built outside the scope, whose step calls `model.call(...)` directly: its
layers first run inside `strategy.run`, where Keras creates their weights as mirrored variables."""
import tensorflow as tf


class Encoder(tf.keras.Model):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, d_model)
        self.projection = tf.keras.layers.Dense(vocab_size)

    def call(self, inputs, training=False):
        return self.projection(self.embedding(inputs))


GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()
encoder = Encoder(vocab_size=8000, d_model=128)
with strategy.scope():
    optimizer = tf.keras.optimizers.Adam(1e-4)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


def train_step(inputs, targets):
    with tf.GradientTape() as tape:
        logits = encoder.call(inputs, training=True)
        loss = tf.nn.compute_average_loss(loss_object(targets, logits), global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, encoder.trainable_variables)
    optimizer.apply_gradients(zip(gradients, encoder.trainable_variables))
    return loss


@tf.function
def distributed_train_step(inputs, targets):
    losses = strategy.run(train_step, args=(inputs, targets))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)


tokens = tf.random.uniform((256, 32), maxval=8000, dtype=tf.int32)
dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((tokens, tokens)).batch(GLOBAL_BATCH_SIZE))
for batch_inputs, batch_targets in dataset:
    distributed_train_step(batch_inputs, batch_targets)
