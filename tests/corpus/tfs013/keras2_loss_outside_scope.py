import tensorflow as tf
import tf_keras as keras

strategy = tf.distribute.MirroredStrategy()
mse = keras.losses.MeanSquaredError()  # expect: TFS013

with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(3,))])
    optimizer = keras.optimizers.SGD(0.01)


def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = mse(targets, model(features, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(features, targets):
    return strategy.run(train_step, args=(features, targets))
