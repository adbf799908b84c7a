import tensorflow as tf


class DetectorTrain(tf.keras.Model):
    """A segmentation detector whose step reads its losses from what compile was given."""

    def __init__(self, num_classes):
        super().__init__()
        self.backbone = tf.keras.Sequential([tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu")])
        self.seg_head = tf.keras.layers.Conv2D(num_classes, 1)

    def call(self, images, training=False):
        return self.seg_head(self.backbone(images, training=training))

    def train_step(self, data):
        images, masks = data
        with tf.GradientTape() as tape:
            seg_outputs = self(images, training=True)
            seg_loss = self.loss["seg_loss"](masks, seg_outputs)
        gradients = tape.gradient(seg_loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"seg_loss": seg_loss}
