import tensorflow as tf
from tensorflow import keras

gpus = tf.config.list_physical_devices("GPU")
strategy = tf.distribute.MirroredStrategy() if len(gpus) > 1 else None


def build_model():
    return keras.Sequential([keras.Input(shape=(28, 28)), keras.layers.Flatten(), keras.layers.Dense(10)])


if strategy:
    with strategy.scope():
        model = build_model()
        optimizer = keras.optimizers.Adam()
else:
    model = build_model()
    optimizer = keras.optimizers.Adam()

if strategy:
    with strategy.scope():
        model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")
else:
    model.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy")


def train_single_or_distributed(dataset, strategy=None):
    if strategy is None:
        single = build_model()
        single.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
        single.fit(dataset, epochs=1)
        return single
    with strategy.scope():
        single = build_model()
        single.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    single.fit(dataset, epochs=1)
    return single
