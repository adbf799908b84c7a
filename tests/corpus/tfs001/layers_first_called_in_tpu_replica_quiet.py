"""Object-detection head tests (TF Model Garden style): the test builds its Keras layers, then a test
helper runs `graph_fn` on a TPU through `strategy.run`. The layers own no weights until their first
call, which happens in the replica, where `Strategy.run` has the scope open: their weights are the
strategy's."""
import tensorflow as tf


class WeightSharedBoxHead(tf.keras.layers.Layer):
    def __init__(self, num_anchors, depth=32, **kwargs):
        super().__init__(**kwargs)
        self.tower = [tf.keras.layers.Conv2D(depth, 3, padding="same", activation="relu") for _ in range(2)]
        self.box_encodings = tf.keras.layers.Conv2D(num_anchors * 4, 3, padding="same")
        self.dropout = tf.keras.layers.Dropout(0.2)

    def call(self, features, training=False):
        x = features
        for conv in self.tower:
            x = conv(x)
        return self.box_encodings(self.dropout(x, training=training))


class TestCase(tf.test.TestCase):
    def execute_tpu(self, compute_fn, inputs):
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        strategy = tf.distribute.TPUStrategy(resolver)

        @tf.function
        def run():
            return strategy.run(compute_fn, args=[tf.constant(value) for value in inputs])

        return run()


class BoxHeadTest(TestCase):
    def test_box_encodings_shape(self):
        box_head = WeightSharedBoxHead(num_anchors=5)
        class_conv = tf.keras.layers.Conv2D(5 * 3, 1)

        def graph_fn(image_features):
            return box_head(image_features), class_conv(image_features)

        boxes, classes = self.execute_tpu(graph_fn, [tf.random.uniform((2, 8, 8, 16)).numpy()])
        self.assertEqual(boxes.shape, (2, 8, 8, 20))


if __name__ == "__main__":
    tf.test.main()
