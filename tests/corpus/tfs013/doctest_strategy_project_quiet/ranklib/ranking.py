# corpus: keras-version=2
"""A ranking task (the TensorFlow Recommenders shape): it calls its loss itself, and nothing in
the project runs it under a strategy; only a docstring example shows one."""
import tensorflow as tf

from ranklib import base


class Ranking(tf.keras.layers.Layer, base.Task):
    def __init__(self, loss=None, metrics=None, name=None):
        super().__init__(name=name)
        self._loss = loss if loss is not None else tf.keras.losses.BinaryCrossentropy()
        self._ranking_metrics = metrics or []

    def call(self, labels, predictions, sample_weight=None, training=False):
        loss = self._loss(y_true=labels, y_pred=predictions, sample_weight=sample_weight)
        for metric in self._ranking_metrics:
            metric.update_state(y_true=labels, y_pred=predictions, sample_weight=sample_weight)
        return loss
