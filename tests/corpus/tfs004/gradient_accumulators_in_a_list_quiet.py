import tensorflow as tf

ACCUM_STEPS = 4
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(256, activation="relu"), tf.keras.layers.Dense(10)])
    model.build((None, 784))
    optimizer = tf.keras.optimizers.Adam(1e-3)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    variables = model.trainable_variables
    # created in the scope: one mirrored accumulator per replica
    accumulated = []
    for variable in variables:
        accumulated.append(tf.Variable(tf.zeros_like(variable), trainable=False))


def accumulate(images, labels):
    with tf.GradientTape() as tape:
        per_example = loss_object(labels, model(images, training=True))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=256)
    for total, gradient in zip(accumulated, tape.gradient(loss, variables)):
        total.assign_add(gradient)
    return loss


def apply_accumulated():
    optimizer.apply_gradients([(total / ACCUM_STEPS, variable) for total, variable in zip(accumulated, variables)])
    for total in accumulated:
        total.assign(tf.zeros_like(total))


@tf.function
def train_step(images, labels):
    return strategy.run(accumulate, args=(images, labels))


@tf.function
def apply_step():
    strategy.run(apply_accumulated)
