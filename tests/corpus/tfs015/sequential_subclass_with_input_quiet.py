"""A DCGAN generator that subclasses `Sequential` and hands it a layer list starting with an
`InputLayer`: Keras builds its weights in the constructor, inside the scope, so sampling from
it outside the scope creates nothing."""
import numpy as np
import tensorflow as tf

tfl = tf.keras.layers


class Generator(tf.keras.Sequential):
    def __init__(self, image_shape, latent_dim):
        first_layer_shape = (image_shape[0] // 4, image_shape[1] // 4, 256)
        super(Generator, self).__init__([
            tfl.InputLayer(input_shape=(latent_dim,)),
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
generator.summary()
images = generator.sample(16)
