import numpy as np
import tensorflow as tf
from tensorflow import keras


class FrozenEmbedding(keras.layers.Layer):
    """Looks rows up in a pretrained matrix it is given."""

    def __init__(self, matrix, **kwargs):
        super().__init__(**kwargs)
        self.matrix = matrix

    def call(self, ids):
        return tf.nn.embedding_lookup(self.matrix, ids)


embedding_matrix = tf.Variable(np.load("glove_300d.npy"), trainable=False)  # expect: TFS004

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([FrozenEmbedding(embedding_matrix), keras.layers.GlobalAveragePooling1D(), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="binary_crossentropy")
