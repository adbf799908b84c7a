# corpus: keras-version=2
import tensorflow as tf

from alignment import guided_alignment_cost, sequence_cross_entropy

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Embedding(8000, 256), tf.keras.layers.LSTM(256, return_sequences=True),
                                 tf.keras.layers.Dense(8000)])
    optimizer = tf.keras.optimizers.Adam(2e-4)


def train_step(source, target, lengths, alignment):
    with tf.GradientTape() as tape:
        logits = model(source, training=True)
        loss = sequence_cross_entropy(target, logits, lengths)
        loss += guided_alignment_cost(tf.nn.softmax(logits), alignment)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(source, target, lengths, alignment):
    return strategy.run(train_step, args=(source, target, lengths, alignment))
