import tensorflow as tf
from tensorflow import keras


def run_trial(seed: int) -> float:
    keras.utils.set_random_seed(seed)
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.Adam(), loss="mse")
    return model.evaluate(tf.random.normal((32, 4)), tf.random.normal((32, 1)), verbose=0)


scores = [run_trial(seed) for seed in range(5)]
print(min(scores))
