"""A tagger that can open its own MirroredStrategy (the DeLFT shape); the wrapper that opens one
itself calls it with the default `multi_gpu=False`, so the second strategy never opens there."""
import tensorflow as tf


class Tagger:
    def __init__(self, model):
        self.model = model

    def tag(self, texts, features=None, multi_gpu=False):
        if multi_gpu:
            strategy = tf.distribute.MirroredStrategy()
            with strategy.scope():
                return self.tag_(texts, features)
        return self.tag_(texts, features)

    def tag_(self, texts, features=None):
        return self.model.predict(texts)
