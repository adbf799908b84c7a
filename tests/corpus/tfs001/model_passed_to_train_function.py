import tensorflow as tf
from tensorflow import keras


def build_model() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(24,)), keras.layers.Dense(64, activation="relu"), keras.layers.Dense(1)])


def train(model: keras.Model, strategy: tf.distribute.Strategy, dataset: tf.data.Dataset) -> None:
    with strategy.scope():
        model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    model.fit(dataset, epochs=3)


def main() -> None:
    strategy = tf.distribute.MirroredStrategy()
    dataset = tf.data.Dataset.from_tensor_slices((tf.random.normal((128, 24)), tf.random.normal((128, 1)))).batch(32)
    model = build_model()  # expect: TFS001
    train(model, strategy, dataset)


if __name__ == "__main__":
    main()
