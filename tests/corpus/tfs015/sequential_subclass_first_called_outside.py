"""The same generator without its `InputLayer`: Keras builds it at its first call, which runs
outside the scope, so its weights are plain single-device variables, which the training step
then updates under the strategy. The first call is in its own `sample` method: the fix moves
the call of `sample` into the scope."""
import numpy as np
import tensorflow as tf

tfl = tf.keras.layers


class Generator(tf.keras.Sequential):
    def __init__(self, image_shape, latent_dim):
        first_layer_shape = (image_shape[0] // 4, image_shape[1] // 4, 256)
        super(Generator, self).__init__([
            tfl.Dense(np.prod(first_layer_shape), use_bias=False),
            tfl.BatchNormalization(),
            tfl.LeakyReLU(),
            tfl.Reshape(first_layer_shape),
            tfl.Conv2DTranspose(1, 5, strides=4, padding="same", activation="tanh"),
        ])
        self.latent_dim = latent_dim

    def sample(self, count):
        return self(tf.random.normal([count, self.latent_dim]), training=False)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    generator = Generator((28, 28, 1), latent_dim=100)
    gen_opt = tf.keras.optimizers.Adam(1e-4)


@tf.function
def train_step(noise):
    with tf.GradientTape() as tape:
        loss = -tf.reduce_mean(generator(noise, training=True))
    gradients = tape.gradient(loss, generator.trainable_variables)
    gen_opt.apply_gradients(zip(gradients, generator.trainable_variables))


images = generator.sample(16)  # expect: TFS015
strategy.run(train_step, args=(tf.random.normal([8, 100]),))
