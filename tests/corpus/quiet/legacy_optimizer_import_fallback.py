"""Keras 2 code that prefers the legacy optimizers and falls back where TensorFlow has no legacy
module (before 2.11): either way the optimizer is an OptimizerV2, which makes its slots at the
first step in the replica context, so building it before the scope works."""
# corpus: keras-version=2
import tensorflow as tf

try:
    from tensorflow.keras.optimizers.legacy import Adam
except ImportError:
    from tensorflow.keras.optimizers import Adam

strategy = tf.distribute.MirroredStrategy()
optimizer = Adam(1e-3)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [0.0])).batch(1), epochs=1)


class Trainer:
    def __init__(self, model):
        self.model = model
        try:
            self.optimizer = tf.keras.optimizers.legacy.SGD(learning_rate=0.1, momentum=0.9)
        except AttributeError:
            self.optimizer = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)

    def step(self, x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(x) - y))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))


trainer = Trainer(model)
for x, y in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [0.0])).batch(1)):
    strategy.run(trainer.step, args=(x, y))
