# corpus: keras-version=2
import tensorflow as tf


class SoftDiceLoss(tf.keras.losses.Loss):
    def __init__(self, smooth=1.0, name="soft_dice"):
        super().__init__(name=name)  # expect: TFS013
        self.smooth = smooth

    def call(self, y_true, y_pred):
        intersection = tf.reduce_sum(y_true * y_pred, axis=[1, 2])
        total = tf.reduce_sum(y_true + y_pred, axis=[1, 2])
        return 1.0 - (2.0 * intersection + self.smooth) / (total + self.smooth)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv2D(1, 3, padding="same", activation="sigmoid")])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    dice = SoftDiceLoss()


def train_step(images, masks):
    with tf.GradientTape() as tape:
        loss = dice(masks, model(images, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(images, masks):
    return strategy.run(train_step, args=(images, masks))
