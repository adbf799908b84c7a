"""The strategy is a OneDeviceStrategy on one GPU and a MirroredStrategy on several; the loop
steps directly, outside `run` and the scope. On several GPUs only one copy of each variable is
updated, so the step is reported although one of the paths keeps a single copy."""
import tensorflow as tf

gpus = tf.config.list_logical_devices("GPU")
if len(gpus) > 1:
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


for x, y in tf.data.Dataset.from_tensor_slices((tf.zeros((8, 8)), tf.zeros((8, 1)))).batch(4):
    train_step(x, y)  # expect: TFS012
