"""A streaming-inference script (the TensorflowASR test-script shape): the subclassed model is
constructed, compiled and given its trained weights inside the scope, then only run for
predictions through its own `predict`, whose sub-layers build on their first call outside the
scope. Nothing ever trains them: single-device weights make inference slower, not wrong."""
import os

import tensorflow as tf


class ConvFront(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.conv = tf.keras.layers.Conv1D(64, 3, padding="same")

    def call(self, x, training=False):
        return self.conv(x)


class Encoder(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.lstm = tf.keras.layers.LSTM(128, return_sequences=True)

    def call(self, x, training=False):
        return self.lstm(x)


class Conformer(tf.keras.Model):
    def __init__(self, num_classes):
        super().__init__()
        self.front = ConvFront()
        self.encoder = Encoder()
        self.decoder = tf.keras.layers.Dense(num_classes)

    def predict(self, x):
        return self.decoder(self.encoder(self.front(x, training=False), training=False))


class ASR:
    def __init__(self, outdir):
        self.strategy = tf.distribute.MirroredStrategy()
        self.outdir = outdir
        self.compile()

    def compile(self):
        with self.strategy.scope():
            self.runner = Conformer(num_classes=40)
            self.runner.compile()
            self.runner.load_weights(tf.train.latest_checkpoint(os.path.join(self.outdir, "ckpt")))

    def recognize(self, wav):
        return self.runner.predict(wav)
