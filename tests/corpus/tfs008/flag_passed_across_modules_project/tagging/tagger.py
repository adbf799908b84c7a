"""The same tagger, but the wrapper hands `multi_gpu=True` on from inside its own strategy's scope:
the tagger opens a second MirroredStrategy there."""
import tensorflow as tf


class Tagger:
    def __init__(self, model):
        self.model = model

    def tag(self, texts, features=None, multi_gpu=False):
        if multi_gpu:
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():  # expect: TFS008
                return self.tag_(texts, features)
        return self.tag_(texts, features)

    def tag_(self, texts, features=None):
        return self.model.predict(texts)
