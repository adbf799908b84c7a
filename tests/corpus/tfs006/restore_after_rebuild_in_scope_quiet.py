import tensorflow as tf
from tensorflow import keras


def build_model():
    return keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(4)])


strategy = tf.distribute.MirroredStrategy()

# a smoke test on one device first
model = build_model()
model.load_weights("pretrained.weights.h5")
print(model(tf.zeros((1, 16))))

with strategy.scope():
    model = build_model()
    model.load_weights("pretrained.weights.h5")
    model.compile(optimizer="adam", loss="mse")
