# corpus: keras-version=2
import tensorflow as tf

bce = tf.keras.losses.BinaryCrossentropy()  # expect: TFS013
dice_smooth = 1.0


def dice_loss(y_true, y_pred):
    intersection = tf.reduce_sum(y_true * y_pred, axis=[1, 2, 3])
    union = tf.reduce_sum(y_true + y_pred, axis=[1, 2, 3])
    return 1.0 - (2.0 * intersection + dice_smooth) / (union + dice_smooth)


# compile exempts only the function it is given; the Keras loss object called inside it is not
def bce_dice_loss(y_true, y_pred):
    return bce(y_true, y_pred) + dice_loss(y_true, y_pred)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = tf.keras.Input((128, 128, 3))
    hidden = tf.keras.layers.Conv2D(16, 3, padding="same", activation="relu")(inputs)
    outputs = tf.keras.layers.Conv2D(1, 1, activation="sigmoid")(hidden)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss=bce_dice_loss, metrics=["accuracy"])

images = tf.zeros((16, 128, 128, 3))
masks = tf.zeros((16, 128, 128, 1))
model.fit(images, masks, batch_size=8, epochs=2)
