"""The model class and its `build_graph` live in another module of the package; the build
still happens here, after the scope closed."""
import tensorflow as tf
from tensorflow import keras

from classifier.model import ConvClassifier


def train(x_train, y_train, input_shape, num_classes=6):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = ConvClassifier(num_classes=num_classes, kernel_size=3)
        model.compile(loss="categorical_crossentropy", optimizer=keras.optimizers.Adam(1e-3), metrics=["acc"])
    model.build_graph(input_shape)  # expect: TFS015
    return model.fit(x_train, y_train, epochs=20)
