import tensorflow as tf

from tagging.tagger import Tagger


class Sequence:
    def __init__(self, model):
        self.model = model

    def tag(self, texts, multi_gpu=False):
        if multi_gpu:
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                return Tagger(self.model).tag(texts)
        return Tagger(self.model).tag(texts)
