"""The same head, but the test calls it once on the host to check its output before running the TPU
step: that first call made its weights outside every scope, so the replicas read plain host
variables."""
import tensorflow as tf


class BoxHead(tf.keras.layers.Layer):
    def __init__(self, num_anchors, depth=32, **kwargs):
        super().__init__(**kwargs)
        self.conv = tf.keras.layers.Conv2D(depth, 3, padding="same", activation="relu")
        self.box_encodings = tf.keras.layers.Conv2D(num_anchors * 4, 3, padding="same")

    def call(self, features):
        return self.box_encodings(self.conv(features))


def run_on_tpu(compute_fn, inputs):
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)

    @tf.function
    def run():
        return strategy.run(compute_fn, args=inputs)

    return run()


features = tf.random.uniform((2, 8, 8, 16))
box_head = BoxHead(num_anchors=5)  # expect: TFS001
print(box_head(features).shape)


def graph_fn(image_features):
    return box_head(image_features)


run_on_tpu(graph_fn, [features])
