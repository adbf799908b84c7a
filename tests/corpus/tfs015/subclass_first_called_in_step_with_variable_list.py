"""A Kubeflow NMT example's shape: the subclassed encoder and decoder are constructed in the
scope, but first called in a `tf.function` step run directly, outside any scope, whose
optimizer updates them through a list kept in a name: their weights are plain variables."""
import tensorflow as tf


class Encoder(tf.keras.Model):
    def __init__(self, vocab_size, units):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, 256)
        self.gru = tf.keras.layers.GRU(units, return_sequences=True, return_state=True)

    def call(self, x):
        return self.gru(self.embedding(x))


class Decoder(tf.keras.Model):
    def __init__(self, vocab_size, units):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, 256)
        self.gru = tf.keras.layers.GRU(units, return_state=True)
        self.fc = tf.keras.layers.Dense(vocab_size)

    def call(self, x, hidden):
        output, state = self.gru(self.embedding(x), initial_state=hidden)
        return self.fc(output), state


def define_model(vocab_inp_size, vocab_tar_size):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        encoder = Encoder(vocab_inp_size, 1024)
        decoder = Decoder(vocab_tar_size, 1024)
        optimizer = tf.keras.optimizers.Adam()
    return encoder, decoder, optimizer


@tf.function
def train_step(inp, targ, encoder, decoder, optimizer):
    with tf.GradientTape() as tape:
        enc_output, enc_hidden = encoder(inp)  # expect: TFS015
        predictions, _ = decoder(targ[:, :1], enc_hidden)  # expect: TFS015
        loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(targ[:, 1], predictions, from_logits=True))
    variables = encoder.trainable_variables + decoder.trainable_variables
    gradients = tape.gradient(loss, variables)
    optimizer.apply_gradients(zip(gradients, variables))
    return loss


encoder, decoder, optimizer = define_model(5000, 6000)
for inp, targ in tf.data.Dataset.from_tensors((tf.zeros((64, 16), tf.int32), tf.zeros((64, 12), tf.int32))):
    train_step(inp, targ, encoder, decoder, optimizer)  # expect: TFS012
