"""A script runs its tests one after another from `__main__`: the strategy the first one makes is
local to it, so the second test's model, which never meets a strategy, is not "built after" it."""
import tensorflow as tf


def test_mirrored_training():
    strategy = tf.distribute.MirroredStrategy()
    print(strategy.num_replicas_in_sync)


def test_single_device_training():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
    model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 8], [0.0])).batch(1), epochs=1)


if __name__ == "__main__":
    test_mirrored_training()
    test_single_device_training()
