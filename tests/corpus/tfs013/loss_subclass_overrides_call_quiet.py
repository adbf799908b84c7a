# corpus: keras-version=2
import tensorflow as tf


class SupervisedContrastiveLoss(tf.keras.losses.Loss):
    def __init__(self, temperature=0.1, name=None):
        super().__init__(name=name)
        self.temperature = temperature

    # overriding __call__ skips Keras's reduction check: this loss reduces itself
    def __call__(self, labels, features, sample_weight=None):
        features = tf.math.l2_normalize(features, axis=1)
        logits = tf.matmul(features, features, transpose_b=True) / self.temperature
        return tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(labels, logits))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    encoder = tf.keras.Sequential([tf.keras.layers.Dense(128)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    contrastive = SupervisedContrastiveLoss()


def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = contrastive(labels, encoder(images, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, encoder.trainable_variables), encoder.trainable_variables))
    return loss


@tf.function
def distributed_train_step(images, labels):
    return strategy.run(train_step, args=(images, labels))
