"""Kaggle-style script: TensorFlow comes in through a star import of the author's utilities; the
default strategy runs the steps, so nothing is distributed and nothing is misplaced."""
from tweet_utility_scripts import *
from tensorflow.keras import layers, metrics, models, optimizers

strategy = tf.distribute.get_strategy()
model = models.Sequential([layers.Dense(2, input_shape=(8,))])
optimizer = optimizers.Adam(3e-5)
train_loss = metrics.Sum()


@tf.function
def train_step(data_iter):
    def train_step_fn(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        train_loss.update_state(loss)

    for _ in tf.range(100):
        strategy.run(train_step_fn, next(data_iter))


train_step(iter(strategy.experimental_distribute_dataset(dataset)))
