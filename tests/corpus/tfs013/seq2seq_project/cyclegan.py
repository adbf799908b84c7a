# corpus: keras-version=2
import tensorflow as tf
from tensorflow import keras


class CycleGAN(keras.Model):
    def __init__(self, generator_g, generator_f, lambda_cycle=10.0):
        super().__init__()
        self.gen_g = generator_g
        self.gen_f = generator_f
        self.lambda_cycle = lambda_cycle

    def compile(self, gen_g_optimizer, gen_f_optimizer):
        super().compile()
        self.gen_g_optimizer = gen_g_optimizer
        self.gen_f_optimizer = gen_f_optimizer
        self.cycle_loss_fn = keras.losses.MeanAbsoluteError()  # expect: TFS013

    def train_step(self, batch_data):
        real_x, real_y = batch_data
        with tf.GradientTape(persistent=True) as tape:
            cycled_y = self.gen_g(self.gen_f(real_y, training=True), training=True)
            cycle_loss = self.cycle_loss_fn(real_y, cycled_y) * self.lambda_cycle
        grads = tape.gradient(cycle_loss, self.gen_g.trainable_variables)
        self.gen_g_optimizer.apply_gradients(zip(grads, self.gen_g.trainable_variables))
        return {"cycle_loss": cycle_loss}
