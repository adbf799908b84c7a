import numpy as np
import tensorflow as tf

x_train = np.random.rand(512, 32, 32, 3).astype("float32")
# adapted once on the host; its state is only read by the replicas afterwards
norm_layer = tf.keras.layers.Normalization()
norm_layer.adapt(x_train)


class Denoiser(tf.keras.Model):
    def __init__(self, network):
        super().__init__()
        self.network = network

    def train_step(self, clean_inputs):
        noisy = norm_layer(clean_inputs + tf.random.normal(tf.shape(clean_inputs)) * 0.25)
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.network(noisy, training=True) - clean_inputs))
        gradients = tape.gradient(loss, self.network.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.network.trainable_variables))
        return {"loss": loss}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    denoiser = Denoiser(tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding="same")]))
    denoiser.compile(optimizer=tf.keras.optimizers.Adam(1e-3))

denoiser.fit(tf.data.Dataset.from_tensor_slices(x_train).batch(64), epochs=1)
