# corpus: keras-version=2
"""Segmentation losses; `segment.py` picks one by name from the config."""
import tensorflow as tf


class DiceLoss(tf.keras.losses.Loss):
    def __init__(self, smooth=1.0):
        super().__init__(name="dice")
        self.smooth = smooth

    def call(self, y_true, y_pred):
        overlap = tf.reduce_sum(y_true * y_pred, axis=[1, 2])
        total = tf.reduce_sum(y_true + y_pred, axis=[1, 2])
        return 1.0 - (2.0 * overlap + self.smooth) / (total + self.smooth)


class FocalLoss(tf.keras.losses.Loss):
    def __init__(self, gamma=2.0):
        super().__init__(name="focal")
        self.gamma = gamma

    def call(self, y_true, y_pred):
        bce = tf.keras.backend.binary_crossentropy(y_true, y_pred)
        return tf.reduce_mean(tf.pow(1.0 - tf.exp(-bce), self.gamma) * bce, axis=[1, 2])
