# corpus: keras-version=2
import tensorflow as tf


class WeightedLosses:
    """Sums several Keras losses, each with its weight; compiled as one loss."""

    def __init__(self):
        self._functions = []
        self._weights = []

    def add_loss(self, function, weight=1.0):
        self._functions.append(function)
        self._weights.append(weight)

    def __call__(self, y_true, y_pred):
        loss = 0.0
        for function, weight in zip(self._functions, self._weights):
            loss += function(y_true, y_pred) * weight
        return loss


def build_model():
    return tf.keras.Sequential([tf.keras.layers.Conv2D(3, 3, padding="same", input_shape=(64, 64, 3))])


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = build_model()
    loss = WeightedLosses()
    loss.add_loss(tf.keras.losses.MeanAbsoluteError())  # expect: TFS013
    loss.add_loss(tf.keras.losses.MeanSquaredError(reduction="none"), weight=0.5)
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-4), loss=loss)

faces = tf.zeros((8, 64, 64, 3))
model.fit(faces, faces, batch_size=4, epochs=1)
