"""The same model, but after its sub-layers were built by a prediction outside the scope, it is
fine-tuned: `fit` trains single-device weights under a MirroredStrategy."""
import tensorflow as tf


class Conformer(tf.keras.Model):
    def __init__(self, num_classes):
        super().__init__()
        self.front = tf.keras.layers.Conv1D(64, 3, padding="same")
        self.encoder = tf.keras.layers.LSTM(128, return_sequences=True)
        self.decoder = tf.keras.layers.Dense(num_classes)

    def call(self, x, training=False):
        return self.decoder(self.encoder(self.front(x, training=training), training=training))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    runner = Conformer(num_classes=40)
    runner.compile(optimizer=tf.keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")

warmup = runner(tf.zeros((1, 100, 80)))  # expect: TFS015
with strategy.scope():
    runner.fit(tf.zeros((8, 100, 80)), tf.zeros((8, 100)), epochs=1)
