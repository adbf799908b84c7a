import tensorflow as tf
from tensorflow import keras


def train(strategy: tf.distribute.Strategy, dataset: tf.data.Dataset, epochs: int) -> keras.Model:
    model = keras.Sequential([  # expect: TFS001
        keras.Input(shape=(6,)),
        keras.layers.Dense(16, activation="relu"),
        keras.layers.Dense(1),
    ])
    with strategy.scope():
        model.compile(optimizer=keras.optimizers.Adam(), loss="mae")
    model.fit(dataset, epochs=epochs)
    return model
