import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
optimizer = tf.optimizers.Adam(1e-3)  # expect: TFS002

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])


def train_step(features, targets):
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.square(model(features) - targets), global_batch_size=32)
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@tf.function
def distributed_step(features, targets):
    return strategy.run(train_step, args=(features, targets))


distributed_step(tf.random.normal((32, 4)), tf.random.normal((32, 1)))
