import tensorflow as tf
from tensorflow import keras


def main() -> None:
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    for learning_rate in (1e-3, 1e-4):
        model.optimizer.learning_rate.assign(learning_rate)
        model.fit(tf.random.normal((64, 16)), tf.random.normal((64, 1)), epochs=1)


if __name__ == "__main__":
    main()
