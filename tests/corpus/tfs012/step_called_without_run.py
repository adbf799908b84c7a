import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, model(features))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=32)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


features = tf.random.normal((32, 4))
labels = tf.random.uniform((32,), maxval=2, dtype=tf.int32)
for epoch in range(10):
    train_step(features, labels)  # expect: TFS012
