import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.1)

seen_examples = tf.Variable(0, dtype=tf.int64)  # expect: TFS004


def step_fn(images, labels, counter):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.keras.losses.sparse_categorical_crossentropy(labels, model(images), from_logits=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    counter.assign_add(tf.shape(images, out_type=tf.int64)[0])


@tf.function
def train_step(images, labels):
    strategy.run(step_fn, args=(images, labels, seen_examples))
