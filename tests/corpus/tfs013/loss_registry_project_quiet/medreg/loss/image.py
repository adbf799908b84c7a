import tensorflow as tf

from medreg.registry import REGISTRY


@REGISTRY.register_loss(name="ssd")
class SumSquaredDifference(tf.keras.losses.Loss):
    def __init__(self, reduction=tf.keras.losses.Reduction.NONE, name="SumSquaredDifference"):
        super().__init__(reduction=reduction, name=name)

    def call(self, y_true, y_pred):
        return tf.reduce_mean(tf.square(y_true - y_pred), axis=[1, 2, 3, 4])


@REGISTRY.register_loss(name="lncc")
class LocalNormalizedCrossCorrelation(tf.keras.losses.Loss):
    def __init__(self, kernel_size=9, reduction=tf.keras.losses.Reduction.NONE, name="LocalNormalizedCrossCorrelation"):
        super().__init__(reduction=reduction, name=name)
        self.kernel_size = kernel_size

    def call(self, y_true, y_pred):
        window = tf.ones((self.kernel_size,) * 3 + (1, 1)) / self.kernel_size ** 3
        mean_true = tf.nn.conv3d(y_true, window, strides=[1] * 5, padding="SAME")
        mean_pred = tf.nn.conv3d(y_pred, window, strides=[1] * 5, padding="SAME")
        return -tf.reduce_mean(mean_true * mean_pred, axis=[1, 2, 3, 4])
