import tensorflow as tf

from medreg.registry import REGISTRY


@REGISTRY.register_backbone(name="local")
class LocalNet(tf.keras.Model):
    def __init__(self, num_channels=16, out_channels=3, name="LocalNet"):
        super().__init__(name=name)
        self.encode = tf.keras.layers.Conv3D(num_channels, 3, padding="same", activation="relu")
        self.decode = tf.keras.layers.Conv3D(out_channels, 3, padding="same")

    def call(self, inputs, training=None):
        return self.decode(self.encode(inputs))
