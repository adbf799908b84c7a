from absl.testing import parameterized
import numpy as np
import tensorflow as tf

from tensorflow.python.distribute import combinations
from tensorflow.python.distribute import strategy_combinations


class KerasFitTest(tf.test.TestCase, parameterized.TestCase):

    @combinations.generate(
        combinations.combine(
            distribution=[strategy_combinations.mirrored_strategy_with_two_cpus],
            mode=["eager"]))
    def test_fit_with_distribution(self, distribution):
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])  # expect: TFS001
        with distribution.scope():
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        model.fit(np.zeros((8, 4)), np.zeros((8, 1)), epochs=1)

    @combinations.generate(
        combinations.combine(
            distribution=[strategy_combinations.mirrored_strategy_with_two_cpus],
            mode=["eager"]))
    def test_fit_built_in_scope(self, distribution):
        with distribution.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        model.fit(np.zeros((8, 4)), np.zeros((8, 1)), epochs=1)
        self.assertEqual(distribution.num_replicas_in_sync, 2)


if __name__ == "__main__":
    tf.test.main()
