"""The generation loader builds its subclassed model outside the scope and only samples from it.
The module's training helper steps whatever model it is given (`model.optimizer` is unknown
here); it never receives the generation model, so that model is never trained."""
import tensorflow as tf


class TinyGPT(tf.keras.Model):
    def __init__(self, vocab_size=512, width=128):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, width)
        self.head = tf.keras.layers.Dense(vocab_size)

    def call(self, tokens):
        return self.head(self.embedding(tokens))


def compute_and_apply_gradients(model, x, y):
    with tf.GradientTape() as tape:
        loss = model.compiled_loss(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    model.optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


def load_generating_model():
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = TinyGPT()
        model.compile()
    model(tf.constant([[0]]))
    return model


def generate(steps=64):
    model = load_generating_model()
    tokens = tf.constant([[0]])
    for _ in range(steps):
        tokens = tf.concat([tokens, tf.argmax(model(tokens)[:, -1:], axis=-1, output_type=tf.int32)], axis=1)
    return tokens
