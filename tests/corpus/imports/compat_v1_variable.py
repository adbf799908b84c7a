import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
bias = tf.compat.v1.Variable(0.0, name="bias")  # expect: TFS004

with strategy.scope():
    optimizer = tf.keras.optimizers.SGD(0.01)


def step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.square(features + bias - targets), global_batch_size=8)
    optimizer.apply_gradients([(tape.gradient(loss, bias), bias)])
    return loss


@tf.function
def distributed_step(features, targets):
    return strategy.run(step, args=(features, targets))
