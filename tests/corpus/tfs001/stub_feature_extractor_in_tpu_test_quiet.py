"""A detection test (object_detection style): the feature extractor is a stub model whose `call`
returns constant tensors, so it has no variable, and building it outside the TPU strategy's scope
places nothing wrongly when the test runs its preprocessing through `strategy.run`."""
import numpy as np
import tensorflow as tf


class FeatureExtractor(tf.keras.Model):
    def __init__(self, name=None, channel_means=(0.0, 0.0, 0.0), channel_stds=(1.0, 1.0, 1.0)):
        super().__init__(name=name)
        if channel_means is None or len(channel_means) == 0:
            channel_means = [0.0, 0.0, 0.0]
        self._channel_means = channel_means
        self._channel_stds = channel_stds

    def preprocess(self, inputs):
        means = tf.reshape(tf.constant(self._channel_means), [1, 1, 1, -1])
        stds = tf.reshape(tf.constant(self._channel_stds), [1, 1, 1, -1])
        return (inputs - means) / stds


class DummyFeatureExtractor(FeatureExtractor):
    def __init__(self, num_feature_outputs, stride):
        self._num_feature_outputs = num_feature_outputs
        self._stride = stride
        super().__init__(channel_means=(0.0, 0.0, 0.0), channel_stds=(1.0, 1.0, 1.0))

    def call(self, inputs):
        if inputs.shape.rank != 4:
            raise ValueError("expected a batch of images, got %s" % inputs.shape)
        batch_size, height, width, _ = inputs.shape
        fake_output = tf.ones([batch_size, height // self._stride, width // self._stride, 64], dtype=tf.float32)
        return [fake_output] * self._num_feature_outputs


class CenterNetArchTest(tf.test.TestCase):
    def setUp(self):
        super().setUp()
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        self.strategy = tf.distribute.TPUStrategy(resolver)

    def test_preprocess(self):
        feature_extractor = DummyFeatureExtractor(num_feature_outputs=2, stride=4)
        img = np.zeros((2, 32, 32, 3))
        img[:, :, :] = 11, 22, 33

        def graph_fn():
            return feature_extractor.preprocess(img)

        output = self.strategy.run(tf.function(graph_fn))
        self.assertAlmostEqual(float(tf.reduce_sum(output)), 2 * 32 * 32 * 3 * 11.0, places=1)

if __name__ == "__main__":
    tf.test.main()
