"""A TensorFlow 1.15 seq2seq fine-tuning script (bert4keras era): graph mode, the model built and
compiled in the MirroredStrategy scope, then resumed with `load_weights` from a TF checkpoint
outside it. Building graphs, OptimizerV2 restores no slot variable at the restore: it makes them
only when executing eagerly, so their values wait until the training step creates them under the
strategy."""
import os

import numpy as np
import tensorflow as tf
from tensorflow import keras

tf.set_random_seed(42)
np.random.seed(42)

strategy = tf.distribute.MirroredStrategy()


def build_model(vocab_size=8000, units=256):
    tokens = keras.layers.Input(shape=(None,), dtype="int32")
    x = keras.layers.Embedding(vocab_size, units)(tokens)
    x = keras.layers.LSTM(units, return_sequences=True)(x)
    outputs = keras.layers.Dense(vocab_size, activation="softmax")(x)
    model = keras.models.Model(tokens, outputs)
    model.compile(optimizer=keras.optimizers.Adam(1e-4), loss="sparse_categorical_crossentropy")
    return model


with strategy.scope():
    seq2seq_model = build_model()

checkpoint_path = "checkpoints/seq2seq.ckpt"
if os.path.exists(checkpoint_path + ".index"):
    seq2seq_model.load_weights(checkpoint_path)

x = np.random.randint(0, 8000, size=(256, 32))
seq2seq_model.fit(x, x[..., None], batch_size=32, epochs=2,
                  callbacks=[keras.callbacks.ModelCheckpoint(checkpoint_path, save_weights_only=True)])
