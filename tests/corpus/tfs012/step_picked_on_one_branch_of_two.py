import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = 256

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.Adam()


def train_step(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.nn.compute_average_loss(
            tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True),
            global_batch_size=GLOBAL_BATCH_SIZE)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


def train_step_clipped(x, y):
    with tf.GradientTape() as tape:
        logits = model(x, training=True)
        loss = tf.nn.compute_average_loss(
            tf.keras.losses.sparse_categorical_crossentropy(y, logits, from_logits=True),
            global_batch_size=GLOBAL_BATCH_SIZE)
    grads, _ = tf.clip_by_global_norm(tape.gradient(loss, model.trainable_variables), 1.0)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def replicated_train_step(x, y):
    return strategy.reduce(tf.distribute.ReduceOp.SUM, strategy.run(train_step, args=(x, y)), axis=None)


def get_step(compiled):
    return tf.function(train_step) if compiled else train_step


def get_distributed_step(compiled):
    return tf.function(replicated_train_step) if compiled else replicated_train_step


def get_clipped_step():
    return tf.function(train_step_clipped)


def train(dataset, compiled, clip_gradients):
    if clip_gradients:
        step = get_clipped_step()
    else:
        step = get_step(compiled)  # expect: TFS012
    with strategy.scope():
        for x, y in dataset:
            # the clipped step has no distributed sibling: reported here; the other one at its pick
            step(x, y)  # expect: TFS012
