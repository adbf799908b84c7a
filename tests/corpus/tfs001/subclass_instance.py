import tensorflow as tf
from tensorflow import keras


class ResidualMLP(keras.Model):
    def __init__(self, width: int, num_classes: int):
        super().__init__()
        self.hidden = keras.layers.Dense(width, activation="gelu")
        self.project = keras.layers.Dense(width)
        self.head = keras.layers.Dense(num_classes)
        self.residual_scale = self.add_weight(shape=(), initializer="ones", name="residual_scale")

    def call(self, inputs):
        x = self.hidden(inputs)
        return self.head(inputs + self.residual_scale * self.project(x))


strategy = tf.distribute.MirroredStrategy()
model = ResidualMLP(width=64, num_classes=10)  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")
