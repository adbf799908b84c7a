import tensorflow as tf


class TransformerLM(tf.keras.Model):
    def __init__(self, vocab_size, d_model):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, d_model)
        self.head = tf.keras.layers.Dense(vocab_size)
        self.mirrored_strategy = None  # set by the launcher for multi-GPU runs

    def call(self, inputs, training=False):
        return self.head(self.embedding(inputs))

    def create_optimizer(self, learning_rate):
        self.optimizer = tf.keras.optimizers.Adam(learning_rate)

    def train_step_fn(self, inputs, targets):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.keras.losses.sparse_categorical_crossentropy(targets, self(inputs), from_logits=True))
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return loss

    def fit_dataset(self, dataset):
        if self.mirrored_strategy is None:
            for inputs, targets in dataset:
                self.train_step_fn(inputs, targets)
        else:
            with self.mirrored_strategy.scope():
                for inputs, targets in dataset:
                    # inside the scope but outside `run`: cross-replica context
                    self.train_step_fn(inputs, targets)  # expect: TFS012
