# corpus: keras-version=2
import tensorflow as tf

mse = tf.keras.losses.MeanSquaredError()  # expect: TFS013


def smooth_l1_plus_mse(y_true, y_pred):
    return tf.keras.losses.huber(y_true, y_pred) + mse(y_true, y_pred)


class GradientClippingModel(tf.keras.Model):
    """The Keras guide's custom `train_step`, with the compiled loss and clipped gradients."""

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
        gradients = tape.gradient(loss, self.trainable_variables)
        gradients = [tf.clip_by_norm(g, 1.0) for g in gradients]
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        self.compiled_metrics.update_state(y, y_pred)
        return {m.name: m.result() for m in self.metrics}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    inputs = tf.keras.Input(shape=(16,))
    outputs = tf.keras.layers.Dense(1)(inputs)
    model = GradientClippingModel(inputs, outputs)
    model.compile(optimizer="adam", loss=smooth_l1_plus_mse, metrics=["mae"])

model.fit(tf.random.normal((256, 16)), tf.random.normal((256, 1)), batch_size=32, epochs=3)
