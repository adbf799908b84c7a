"""The model is built after the scope on each branch of an `if` (with or without auxiliary
features): each branch is a first build outside the scope, on its own path."""
import tensorflow as tf
from tensorflow import keras


class LightCurveNet(keras.Model):
    def __init__(self, num_classes):
        super().__init__()
        self.conv = keras.layers.Conv1D(32, 3, activation="relu")
        self.pool = keras.layers.GlobalAveragePooling1D()
        self.head = keras.layers.Dense(num_classes, activation="softmax")

    def call(self, inputs):
        if isinstance(inputs, (list, tuple)):
            series, aux = inputs
            return self.head(tf.concat([self.pool(self.conv(series)), aux], axis=-1))
        return self.head(self.pool(self.conv(inputs)))


def train(x_train, y_train, aux_train=None, num_classes=14):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = LightCurveNet(num_classes)
        model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(1e-3))
    if aux_train is not None:
        model.build([(None, 100, 6), (None, 4)])  # expect: TFS015
        train_input = [x_train, aux_train]
    else:
        model.build((None, 100, 6))  # expect: TFS015
        train_input = x_train
    return model.fit(train_input, y_train, epochs=20)
