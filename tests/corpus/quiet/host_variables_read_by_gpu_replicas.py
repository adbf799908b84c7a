"""A learning rate and a step counter kept outside the scope, read by the mirrored replicas and
updated on the host between steps: each GPU replica reads the single copy, which works."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
step = tf.Variable(0, name="global_step")
learning_rate = tf.Variable(1e-3, trainable=False)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=1e-3)


def train_step(x, y):
    optimizer.learning_rate = learning_rate * tf.cast(step < 1000, tf.float32)
    with tf.GradientTape() as tape:
        loss = tf.nn.compute_average_loss(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for x, y in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [[0.0]])).batch(1)):
    strategy.run(train_step, args=(x, y))
    step.assign_add(1)
    learning_rate.assign(learning_rate * 0.99)
