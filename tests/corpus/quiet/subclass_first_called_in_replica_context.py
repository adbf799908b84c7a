"""A subclassed model with no input shape owns no variables until its first call, which runs
inside `strategy.run` (the replica context enters the strategy's scope): its weights are mirrored."""
import tensorflow as tf


class ConvN(tf.keras.Model):
    def __init__(self, num_classes=10):
        super().__init__()
        self.features = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3), tf.keras.layers.Flatten()])
        self.head = tf.keras.layers.Dense(num_classes)

    def call(self, x, training=False):
        return self.head(self.features(x, training=training))


strategy = tf.distribute.MirroredStrategy()
model = ConvN()
with strategy.scope():
    optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def train_step(images, labels):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(y, model(x, training=True), from_logits=True))
        optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    strategy.run(step_fn, args=(images, labels))
