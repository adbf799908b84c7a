"""A detection test (object_detection style) whose small feature extractor is a functional graph its
constructor hands `super().__init__`: its convolution's weights exist once it is made, outside the
TPU strategy's scope, and the test then runs it through `strategy.run`."""
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


class TinyFeatureExtractor(tf.keras.Model):
    def __init__(self, num_feature_outputs, stride):
        images = tf.keras.Input(shape=(32, 32, 3))
        features = tf.keras.layers.Conv2D(64, 3, strides=stride, padding="same")(images)
        super().__init__(inputs=images, outputs=[features] * num_feature_outputs)


class CenterNetArchTest(tf.test.TestCase):
    def setUp(self):
        super().setUp()
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        self.strategy = tf.distribute.TPUStrategy(resolver)

    def test_features(self):
        feature_extractor = TinyFeatureExtractor(num_feature_outputs=2, stride=4)  # expect: TFS001
        img = np.zeros((2, 32, 32, 3))
        img[:, :, :] = 11, 22, 33

        def graph_fn():
            return feature_extractor(tf.constant(img, dtype=tf.float32))

        outputs = self.strategy.run(tf.function(graph_fn))
        self.assertLen(outputs, 2)

if __name__ == "__main__":
    tf.test.main()
