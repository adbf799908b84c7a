# corpus: keras-version=2
import tensorflow as tf


class KeyLoss(tf.keras.losses.Loss):
    """Weighted sum of a classification and a consistency term."""

    def __init__(self, alpha=0.7, name="key_loss"):
        super().__init__(reduction=tf.keras.losses.Reduction.NONE, name=name)
        self.alpha = alpha
        self.bce = tf.keras.losses.BinaryCrossentropy()  # expect: TFS013
        self.kl = tf.keras.losses.KLDivergence(reduction=tf.keras.losses.Reduction.NONE)

    def call(self, y_true, y_pred):
        return self.alpha * self.bce(y_true, y_pred) + (1.0 - self.alpha) * self.kl(y_true, y_pred)


strategy = tf.distribute.TPUStrategy(tf.distribute.cluster_resolver.TPUClusterResolver())
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="sigmoid", input_shape=(32,))])
    model.compile(optimizer="adam", loss=KeyLoss())

model.fit(tf.zeros((128, 32)), tf.zeros((128, 4)), batch_size=64, epochs=3)
