# corpus: keras-version=2
import tensorflow as tf

from ranklib import base


class Retrieval(tf.keras.layers.Layer, base.Task):
    """Retrieval task.

    Distribute it as any Keras layer:

    >>> resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
    >>> strategy = tf.distribute.TPUStrategy(resolver)
    >>> with strategy.scope():
    ...     task = Retrieval()
    """

    def __init__(self, loss=None, name=None):
        super().__init__(name=name)
        self._loss = loss if loss is not None else tf.keras.losses.CategoricalCrossentropy(
            from_logits=True, reduction=tf.keras.losses.Reduction.SUM)

    def call(self, query_embeddings, candidate_embeddings):
        scores = tf.linalg.matmul(query_embeddings, candidate_embeddings, transpose_b=True)
        labels = tf.eye(tf.shape(scores)[0], tf.shape(scores)[1])
        return self._loss(y_true=labels, y_pred=scores)
