"""A custom layer that only computes (a minibatch standard deviation) holds no variables: built
outside the scope and used in the replicas, it has nothing to distribute."""
import tensorflow as tf


class MiniBatchStandardDeviation(tf.keras.layers.Layer):
    def __init__(self, batch_axis=0, channel_axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.batch_axis = batch_axis
        self.channel_axis = channel_axis

    def call(self, inputs):
        mean = tf.reduce_mean(inputs, axis=self.batch_axis, keepdims=True)
        stddev = tf.sqrt(tf.reduce_mean(tf.square(inputs - mean), axis=self.batch_axis, keepdims=True) + 1e-8)
        feature = tf.reduce_mean(stddev, keepdims=True) * tf.ones_like(inputs[..., :1])
        return tf.concat([inputs, feature], axis=self.channel_axis)


strategy = tf.distribute.MirroredStrategy()
layer = MiniBatchStandardDeviation()
layer.build((None, 4, 4, 3))


batch = tf.random.normal((8, 4, 4, 3))
distributed = strategy.run(layer.call, args=(batch,))
