# corpus: keras-version=2
import tensorflow as tf


class SegmentationTrainer(tf.keras.Model):
    """A detector with a segmentation head whose step reads its losses from what compile was given."""

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
            # compile's loss container never wraps it: the step calls the loss object itself
            seg_loss = self.loss["seg_loss"](masks, seg_outputs)
        gradients = tape.gradient(seg_loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"seg_loss": seg_loss}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = SegmentationTrainer(num_classes=21)
    model.compile(
        optimizer=tf.keras.optimizers.SGD(0.01, momentum=0.9),
        loss={"seg_loss": tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)},  # expect: TFS013
    )

images = tf.zeros((16, 64, 64, 3))
masks = tf.zeros((16, 64, 64, 1), dtype=tf.int32)
model.fit(tf.data.Dataset.from_tensor_slices((images, masks)).batch(8), epochs=1)
