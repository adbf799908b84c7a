import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(20,)), keras.layers.Dense(5)])
    optimizer = keras.optimizers.Adam()
    # before Keras 3.8 the default reduction averages per replica only: the gradients sum N of them
    loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)  # expect: TFS013


def train_step(inputs):
    features, labels = inputs
    with tf.GradientTape() as tape:
        loss = loss_object(labels, model(features, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(inputs):
    return strategy.run(train_step, args=(inputs,))
