"""A subclassed model built by a method of its own class (`build_graph`, the recipe from
tensorflow#29132 for a summary with shapes), called after the scope closed: the method's
`self.build(...)` makes the weights outside the scope. The fix moves that call into the scope."""
import tensorflow as tf
from tensorflow import keras


class ConvClassifier(keras.Model):
    def __init__(self, num_classes, kernel_size):
        super().__init__()
        self.conv = keras.layers.Conv1D(32, kernel_size, activation="relu")
        self.pool = keras.layers.GlobalAveragePooling1D()
        self.head = keras.layers.Dense(num_classes, activation="softmax")

    def call(self, inputs, training=None):
        return self.head(self.pool(self.conv(inputs)))

    def build_graph(self, input_shape):
        self.build(input_shape)
        inputs = keras.Input(shape=input_shape[1:])
        _ = self.call(inputs)


def train(x_train, y_train, input_shape, num_classes=6):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = ConvClassifier(num_classes=num_classes, kernel_size=3)
        model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(1e-3), metrics=["acc"])
    model.build_graph(input_shape)  # expect: TFS015
    return model.fit(x_train, y_train, epochs=20)
