"""`tf.losses.MSE` (like `MAE`, `MAPE`, `MSLE`, `KLD`) is an alias of the function
`mean_squared_error`, not a `Loss` class (tensorflow/python/keras/losses.py: `mse = MSE =
mean_squared_error`): what it makes has no reduction for Keras to check, whatever the
distributed step does with it."""
import tensorflow as tf

GLOBAL_BATCH_SIZE = 64


class FocalLoss(tf.keras.losses.Loss):
    def __init__(self, alpha=2.0, beta=4.0):
        super().__init__(reduction=tf.keras.losses.Reduction.NONE)
        self.alpha, self.beta = alpha, beta

    def call(self, heatmaps, predictions):
        predictions = tf.clip_by_value(tf.sigmoid(predictions), 1e-4, 1.0 - 1e-4)
        positive = tf.cast(tf.equal(heatmaps, 1.0), tf.float32)
        loss = -positive * tf.pow(1 - predictions, self.alpha) * tf.math.log(predictions) - (
            1 - positive) * tf.pow(1 - heatmaps, self.beta) * tf.pow(predictions, self.alpha) * tf.math.log(1 - predictions)
        return tf.reduce_sum(loss, axis=[1, 2, 3])


class KeypointLoss:
    def __init__(self, mse_loss=False):
        self.heatmap_loss = tf.losses.MSE() if mse_loss else FocalLoss()

    def __call__(self, heatmaps, predictions):
        return self.heatmap_loss(heatmaps, predictions)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([
        tf.keras.layers.Conv2D(32, 3, padding="same", activation="relu"),
        tf.keras.layers.Conv2D(17, 1, padding="same"),
    ])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    keypoint_loss = KeypointLoss()


@tf.function
def train_step(images, heatmaps):
    def step_fn(images, heatmaps):
        with tf.GradientTape() as tape:
            per_example = keypoint_loss(heatmaps, model(images, training=True))
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=GLOBAL_BATCH_SIZE)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return strategy.run(step_fn, args=(images, heatmaps))
