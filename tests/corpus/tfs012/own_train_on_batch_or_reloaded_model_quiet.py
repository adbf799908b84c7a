"""A restart reloads the autoencoder saved by an earlier epoch (`load_model` gives back the saved
class, its own one-step `train_on_batch` included, which tfscope cannot read from the file), else
builds it afresh: either way `strategy.run` runs that one step per replica."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()


class DCVAE(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(16)])
        self.decoder = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(64)])

    def call(self, x):
        return self.decoder(self.encoder(x))

    @tf.function
    def train_on_batch(self, x, ignore):
        with tf.GradientTape() as tape:
            loss = tf.nn.compute_average_loss(tf.reduce_mean(tf.square(self(x) - x), axis=1), global_batch_size=32)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return loss


def get_model(epoch):
    if epoch > 1:
        autoencoder = tf.keras.models.load_model(f"weights/Epoch_{epoch:04d}/ckpt.keras", compile=False)
        autoencoder.compile()
    else:
        autoencoder = DCVAE()
        autoencoder.compile(optimizer=tf.keras.optimizers.Adam(1e-3))
    return autoencoder


def main(start_epoch=1):
    with strategy.scope():
        autoencoder = get_model(start_epoch)
    data = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(tf.zeros((256, 64))).batch(32))
    for batch in data:
        strategy.run(autoencoder.train_on_batch, args=(batch, None))
