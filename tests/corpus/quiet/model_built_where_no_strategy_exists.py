import tensorflow as tf

train_gpu = [0, 1]
if len(train_gpu) > 1:
    strategy = tf.distribute.MirroredStrategy()
else:
    strategy = None

if len(train_gpu) > 1:
    with strategy.scope():
        model = tf.keras.applications.MobileNetV2(weights=None, classes=20)
        optimizer = tf.keras.optimizers.Adam(1e-3)
else:
    # one GPU: no strategy exists on this path, so nothing here is ever distributed
    model = tf.keras.applications.MobileNetV2(weights=None, classes=20)
    optimizer = tf.keras.optimizers.Adam(1e-3)


def train_step(images, labels):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(labels, model(images, training=True)))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(images, labels):
    per_replica = strategy.run(train_step, args=(images, labels))
    return strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)


def fit_one_epoch(dataset):
    for images, labels in dataset:
        if strategy is not None:
            distributed_train_step(images, labels)
        else:
            train_step(images, labels)
