import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
encoder = tf.saved_model.load("exported/text_encoder")  # expect: TFS006

with strategy.scope():
    head = tf.keras.Sequential([tf.keras.Input(shape=(512,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.Adam()


def train_step(texts, labels):
    with tf.GradientTape() as tape:
        logits = head(encoder(texts))
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
        loss = tf.nn.compute_average_loss(per_example)
    optimizer.apply_gradients(zip(tape.gradient(loss, head.trainable_variables), head.trainable_variables))
    return loss


@tf.function
def distributed_train_step(texts, labels):
    return strategy.run(train_step, args=(texts, labels))
