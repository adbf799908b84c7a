import tensorflow as tf
from tensorflow import keras


class Classifier(keras.Model):
    def __init__(self, num_classes: int):
        super().__init__()
        self.flatten = keras.layers.Flatten()
        self.hidden = keras.layers.Dense(128, activation="relu")
        self.logits = keras.layers.Dense(num_classes)

    def call(self, inputs, training=False):
        return self.logits(self.hidden(self.flatten(inputs)))


strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = Classifier(num_classes=10)
    optimizer = keras.optimizers.Adam()

# the first call builds the weights: here, outside the scope
model(tf.zeros((1, 28, 28)))  # expect: TFS015
model.summary()

with strategy.scope():
    model.compile(optimizer=optimizer, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
