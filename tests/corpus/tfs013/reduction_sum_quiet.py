import tensorflow as tf
from tensorflow import keras

GLOBAL_BATCH_SIZE = 64
strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.SGD(0.01)
    loss_object = keras.losses.MeanSquaredError(reduction="sum")


def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = loss_object(targets, model(features, training=True)) / GLOBAL_BATCH_SIZE
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, targets):
    return strategy.run(train_step, args=(features, targets))
