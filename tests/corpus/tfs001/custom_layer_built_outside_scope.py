"""The same custom layer with a learned scale: its weight is made in `build`, which ran outside
the scope, so the replicas share one plain variable."""
import tensorflow as tf


class MiniBatchStandardDeviation(tf.keras.layers.Layer):
    def __init__(self, batch_axis=0, channel_axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.batch_axis = batch_axis
        self.channel_axis = channel_axis

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones")

    def call(self, inputs):
        mean = tf.reduce_mean(inputs, axis=self.batch_axis, keepdims=True)
        stddev = tf.sqrt(tf.reduce_mean(tf.square(inputs - mean), axis=self.batch_axis, keepdims=True) + 1e-8)
        feature = tf.reduce_mean(stddev, keepdims=True) * tf.ones_like(inputs[..., :1])
        return tf.concat([inputs, self.scale * feature], axis=self.channel_axis)


strategy = tf.distribute.MirroredStrategy()
layer = MiniBatchStandardDeviation()  # expect: TFS001
layer.build((None, 4, 4, 3))


batch = tf.random.normal((8, 4, 4, 3))
distributed = strategy.run(layer.call, args=(batch,))
