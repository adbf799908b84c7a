"""A variational autoencoder whose class defines its own `train_on_batch(x, optimizer)`: one
gradient step, not Keras's training loop, so running it per replica through `strategy.run` is the
custom-loop pattern."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


class DCVAE(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = tf.keras.Sequential([tf.keras.Input((64, 64, 1)), tf.keras.layers.Conv2D(8, 3),
                                            tf.keras.layers.Flatten(), tf.keras.layers.Dense(32)])
        self.decoder = tf.keras.Sequential([tf.keras.Input((32,)), tf.keras.layers.Dense(64 * 64),
                                            tf.keras.layers.Reshape((64, 64, 1))])

    def compute_loss(self, x):
        return tf.reduce_mean(tf.square(self.decoder(self.encoder(x)) - x), axis=(1, 2, 3))

    @tf.function
    def train_on_batch(self, x, optimizer):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(self.compute_loss(x), global_batch_size=64)
        gradients = tape.gradient(loss, self.trainable_variables)
        optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return loss


with strategy.scope():
    autoencoder = DCVAE()
    optimizer = tf.keras.optimizers.Adam(1e-4)

dataset = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(tf.zeros((256, 64, 64, 1))).batch(64))
for epoch in range(10):
    for batch in dataset:
        per_replica_loss = strategy.run(autoencoder.train_on_batch, args=(batch, optimizer))
        loss = strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_loss, axis=None)
