import tensorflow as tf
import tf_keras as keras


class CycleGAN(keras.Model):
    def __init__(self, generator):
        super().__init__()
        self.generator = generator

    def compile(self, generator_optimizer):
        super().compile()
        self.generator_optimizer = generator_optimizer
        self.cycle_loss_fn = keras.losses.MeanAbsoluteError()  # expect: TFS013

    def train_step(self, data):
        real_x, real_y = data
        with tf.GradientTape() as tape:
            loss = self.cycle_loss_fn(real_y, self.generator(real_x, training=True))
        grads = tape.gradient(loss, self.generator.trainable_variables)
        self.generator_optimizer.apply_gradients(zip(grads, self.generator.trainable_variables))
        return {"cycle_loss": loss}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = CycleGAN(keras.Sequential([keras.layers.Dense(16)]))
    model.compile(keras.optimizers.Adam(2e-4))

# fit runs train_step through strategy.run: the loss is called in the replica context
model.fit(tf.data.Dataset.from_tensor_slices((tf.zeros((64, 16)), tf.zeros((64, 16)))).batch(8), epochs=1)
