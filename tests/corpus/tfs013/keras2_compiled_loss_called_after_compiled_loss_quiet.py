# corpus: keras-version=2
import tensorflow as tf


class LoggingModel(tf.keras.Model):
    """A step that runs the compiled loss, then logs the loss object's value on its own."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            # the compiled loss container flags the loss object it was given: calls of it are exempt
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        return {"loss": loss, "raw_loss": self.loss(y, y_pred)}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = tf.keras.Input((8,))
    model = LoggingModel(inputs, tf.keras.layers.Dense(1)(inputs))
    model.compile(optimizer="adam", loss=tf.keras.losses.MeanSquaredError())

model.fit(tf.zeros((64, 8)), tf.zeros((64, 1)), batch_size=16)
