# corpus: keras-version=2
import tensorflow as tf

from alignment import guided_alignment_cost


class GuidedAlignmentTest(tf.test.TestCase):
    def test_cross_entropy_cost(self):
        # a test runner calls this with no strategy: the default reduction is fine here
        reference = tf.keras.losses.CategoricalCrossentropy()
        probs = tf.constant([[[0.7, 0.3]]])
        gold = tf.constant([[[1.0, 0.0]]])
        self.assertAllClose(guided_alignment_cost(probs, gold), reference(gold, probs))


if __name__ == "__main__":
    tf.test.main()
