import tensorflow as tf
from tensorflow import keras


def build_model():
    return keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(4)])


strategy = tf.distribute.MirroredStrategy()

model = build_model()
model.load_weights("pretrained.weights.h5")  # expect: TFS006

with strategy.scope():
    # a new distributed model: the weights loaded above stay with the old one
    model = build_model()
    model.compile(optimizer="adam", loss="mse")
