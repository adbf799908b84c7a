# corpus: keras-version=2
import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()


class PairGan(keras.Model):
    """Holds a generator and a discriminator built elsewhere; owns no layers itself."""

    def __init__(self, generator, discriminator):
        super().__init__()
        self.generator = generator
        self.discriminator = discriminator

    def compile(self, gen_optimizer, disc_optimizer):
        super().compile()
        self.gen_optimizer = gen_optimizer
        self.disc_optimizer = disc_optimizer


with strategy.scope():
    generator = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(64)])
    discriminator = keras.Sequential([keras.Input(shape=(64,)), keras.layers.Dense(1)])
    gen_optimizer = keras.optimizers.Adam(2e-4, beta_1=0.5)
    disc_optimizer = keras.optimizers.Adam(2e-4, beta_1=0.5)

# the wrapper records the default strategy, so fit() steps the mirrored parts outside their strategy
gan = PairGan(generator, discriminator)  # expect: TFS001
gan.compile(gen_optimizer=gen_optimizer, disc_optimizer=disc_optimizer)
gan.fit(tf.data.Dataset.from_tensor_slices(tf.zeros((8, 64))).batch(4), epochs=1)
