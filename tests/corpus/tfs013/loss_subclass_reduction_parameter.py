# corpus: keras-version=2
import tensorflow as tf


class GlobalNCC(tf.keras.losses.Loss):
    def __init__(self, reduction=tf.keras.losses.Reduction.AUTO, name="gncc"):  # expect: TFS013
        super().__init__(reduction=reduction, name=name)

    def call(self, y_true, y_pred):
        return -tf.reduce_mean(y_true * y_pred, axis=[1, 2, 3])


class LocalNCC(tf.keras.losses.Loss):
    def __init__(self, reduction=tf.keras.losses.Reduction.SUM, name="lncc"):
        super().__init__(reduction=reduction, name=name)

    def call(self, y_true, y_pred):
        return -tf.reduce_sum(y_true * y_pred, axis=[1, 2, 3])


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Conv3D(1, 3, padding="same")])
    optimizer = tf.keras.optimizers.Adam(1e-4)
    gncc = GlobalNCC()
    lncc = LocalNCC()
    gncc_per_example = GlobalNCC(reduction=tf.keras.losses.Reduction.NONE)


def train_step(moving, fixed):
    with tf.GradientTape() as tape:
        warped = model(moving, training=True)
        loss = gncc(fixed, warped) + lncc(fixed, warped) + tf.reduce_sum(gncc_per_example(fixed, warped))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(moving, fixed):
    return strategy.run(train_step, args=(moving, fixed))
