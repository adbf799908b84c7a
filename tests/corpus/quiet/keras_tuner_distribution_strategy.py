import keras
import keras_tuner
import tensorflow as tf


def build_model(hp: keras_tuner.HyperParameters) -> keras.Model:
    model = keras.Sequential([
        keras.Input(shape=(28, 28)),
        keras.layers.Flatten(),
        keras.layers.Dense(hp.Int("units", min_value=32, max_value=512, step=32), activation="relu"),
        keras.layers.Dense(10, activation="softmax"),
    ])
    model.compile(optimizer=keras.optimizers.Adam(hp.Choice("lr", [1e-2, 1e-3])), loss="sparse_categorical_crossentropy")
    return model


# the tuner enters the strategy's scope around every build_model call
strategy = tf.distribute.MirroredStrategy()
tuner = keras_tuner.RandomSearch(
    build_model,
    objective="val_loss",
    max_trials=5,
    distribution_strategy=strategy,
    directory="tuning",
    project_name="mnist",
)
(x_train, y_train), _ = keras.datasets.mnist.load_data()
tuner.search(x_train / 255.0, y_train, epochs=2, validation_split=0.2)
