import tensorflow as tf


class CharRNN(tf.keras.Model):
    def __init__(self, vocab_size, units=512):
        super().__init__()
        self.embedding = tf.keras.layers.Embedding(vocab_size, 128)
        self.gru = tf.keras.layers.GRU(units, return_sequences=True)
        self.logits = tf.keras.layers.Dense(vocab_size)
        self.strategy = None  # the launcher sets it for multi-GPU runs
        self.loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
            from_logits=True, reduction=tf.keras.losses.Reduction.NONE)

    def call(self, tokens, training=False):
        return self.logits(self.gru(self.embedding(tokens), training=training))

    def build_optimizer(self, learning_rate=1e-3):
        self.optimizer = tf.keras.optimizers.Adam(learning_rate)

    def _loss(self, targets, logits, global_batch):
        per_token = self.loss_object(targets, logits)
        return tf.nn.compute_average_loss(tf.reduce_mean(per_token, axis=1), global_batch_size=global_batch)

    def _train_step(self, tokens, targets):
        with tf.GradientTape() as tape:
            loss = self._loss(targets, self(tokens, training=True), 64)
        grads = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
        return loss

    def _eval_step(self, tokens, targets):
        return self._loss(targets, self(tokens), 64)

    def _distributed_train_step(self, tokens, targets):
        losses = self.strategy.run(self._train_step, args=(tokens, targets))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def _distributed_eval_step(self, tokens, targets):
        losses = self.strategy.run(self._eval_step, args=(tokens, targets))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def step_functions(self, compiled=True):
        if compiled:
            return tf.function(self._train_step), tf.function(self._eval_step)
        return self._train_step, self._eval_step

    def distributed_step_functions(self, compiled=True):
        if compiled:
            return tf.function(self._distributed_train_step), tf.function(self._distributed_eval_step)
        return self._distributed_train_step, self._distributed_eval_step

    def train(self, dataset, epochs=1, compiled=True):
        if self.strategy is None:
            train_step, eval_step = self.step_functions(compiled)
            for _ in range(epochs):
                for tokens, targets in dataset:
                    train_step(tokens, targets)
        else:
            with self.strategy.scope():
                # the single-device steps, in the scope but outside `run`: cross-replica context
                train_step, eval_step = self.step_functions(compiled)  # expect: TFS012
                for _ in range(epochs):
                    for tokens, targets in dataset:
                        train_step(tokens, targets)
