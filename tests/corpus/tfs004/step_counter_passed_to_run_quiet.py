import tensorflow as tf

strategy = tf.distribute.TPUStrategy(tf.distribute.cluster_resolver.TPUClusterResolver())
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(0.1, momentum=0.9)

# host-side: the step number is handed to the replicas as a value (run's arguments become inputs)
step_variable = tf.Variable(0, dtype=tf.int32)


@tf.function
def train_step(iterator, step):
    def step_fn(inputs, step):
        images, labels = inputs
        with tf.GradientTape() as tape:
            logits = model(images, training=True)
            loss = tf.reduce_sum(tf.keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
            loss = loss / 1024 * tf.cast(step < 1000, tf.float32)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))

    strategy.run(step_fn, args=(next(iterator), step))


def train(dataset, steps):
    iterator = iter(dataset)
    for step in range(steps):
        step_variable.assign(step)
        train_step(iterator, step_variable)
