"""The image-captioning tutorial with a MirroredStrategy created before its models and never
entered: the program builds what it trains after the strategy, outside its scope."""
import tensorflow as tf

embedding_dim, units, vocab_size = 256, 512, 5001


class CNNEncoder(tf.keras.Model):
    def __init__(self, embedding_dim):
        super().__init__()
        self.fc = tf.keras.layers.Dense(embedding_dim)

    def call(self, x):
        return tf.nn.relu(self.fc(x))


class RNNDecoder(tf.keras.Model):
    def __init__(self, embedding_dim, units, vocab_size):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, embedding_dim)
        self.gru = tf.keras.layers.GRU(units, return_sequences=True, return_state=True)
        self.fc = tf.keras.layers.Dense(vocab_size)

    def call(self, x, features):
        output, state = self.gru(self.embedding(x))
        return self.fc(output), state


strategy = tf.distribute.MirroredStrategy()
print("Number of devices: {}".format(strategy.num_replicas_in_sync))

encoder = CNNEncoder(embedding_dim)
decoder = RNNDecoder(embedding_dim, units, vocab_size)
optimizer = tf.keras.optimizers.Adam()  # expect: TFS002
loss_object = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")


@tf.function
def train_step(img_tensor, target):
    with tf.GradientTape() as tape:
        features = encoder(img_tensor)
        predictions, _ = decoder(target, features)
        loss = tf.reduce_mean(loss_object(target, predictions))
    trainable_variables = encoder.trainable_variables + decoder.trainable_variables
    gradients = tape.gradient(loss, trainable_variables)
    optimizer.apply_gradients(zip(gradients, trainable_variables))
    return loss


dataset = tf.data.Dataset.from_tensor_slices((tf.zeros((64, 64, 2048)), tf.zeros((64, 20), tf.int32))).batch(16)
for epoch in range(20):
    for img_tensor, target in dataset:
        train_step(img_tensor, target)
