"""A global step kept outside the scope of a OneDeviceStrategy and bumped inside its step: the
one replica updates the single copy, which works."""
import tensorflow as tf

strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
global_step = tf.Variable(0, trainable=False)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam()


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    global_step.assign_add(1)


for x, y in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [[0.0]])).batch(1)):
    strategy.run(train_step, args=(x, y))
