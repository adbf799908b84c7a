"""A Kaggle notebook's `ExtendedModel` (custom `test_step`, `save` forwarded): the subclass only
keeps a model that is already built (a Sequential with an input), so its first call outside the
scope creates no variable, and `fit` trains weights all made in the scope."""
# corpus: keras-version=2
import tensorflow as tf
from tensorflow import keras


def breast_cancer_detect(input_size):
    return keras.Sequential([
        keras.layers.InputLayer(input_shape=(input_size, input_size, 3)),
        keras.layers.Conv2D(16, 3, activation="relu"),
        keras.layers.GlobalAveragePooling2D(),
        keras.layers.Dense(1, activation="sigmoid"),
    ], name="breast_cancer_detect")


class ExtendedModel(keras.Model):
    def __init__(self, model, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.model = model

    def call(self, inputs):
        return self.model(inputs)

    def save_weights(self, filepath, overwrite=True, save_format=None, options=None):
        self.model.save_weights(filepath=filepath, overwrite=overwrite, save_format=save_format, options=options)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = breast_cancer_detect(512)
    model = ExtendedModel(model, name=model.name)
    model.compile(optimizer="adam", loss="binary_crossentropy")

_ = model(tf.ones(shape=(1, 512, 512, 3)))
model.fit(tf.data.Dataset.from_tensors((tf.ones((1, 512, 512, 3)), tf.ones((1, 1)))), epochs=1)
