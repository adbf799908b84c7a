"""One script trains or translates: the training branch fits the model (Keras builds it under
its strategy); the translation branch builds it outside the scope, but only to run predictions
on restored weights. The training on the other branch does not make that build matter."""
import argparse

import tensorflow as tf
from tensorflow import keras


class Seq2Seq(keras.Model):
    def __init__(self, vocab_size, units):
        super().__init__()
        self.embedding = keras.layers.Embedding(vocab_size, units)
        self.encoder = keras.layers.LSTM(units, return_sequences=True)
        self.project = keras.layers.Dense(vocab_size)

    def call(self, tokens):
        return self.project(self.encoder(self.embedding(tokens)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("run", choices=["train", "translate"])
    parser.add_argument("--checkpoint", default="ckpt/model")
    args = parser.parse_args()

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = Seq2Seq(vocab_size=32000, units=512)
        model.compile(optimizer="adam", loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

    if args.run == "train":
        tokens = tf.random.uniform((1024, 40), maxval=32000, dtype=tf.int32)
        model.fit(tokens, tokens, batch_size=64, epochs=3)
        model.save_weights(args.checkpoint)
    elif args.run == "translate":
        model(tf.zeros((1, 40), tf.int32))
        model.load_weights(args.checkpoint)
        print(tf.argmax(model(tf.ones((1, 40), tf.int32)), axis=-1))


if __name__ == "__main__":
    main()
