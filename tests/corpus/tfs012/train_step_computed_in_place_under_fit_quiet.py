"""A custom `train_step` computes its step in place: `fit` already runs it once per replica
through the model's strategy, so it needs no `run` of its own."""
import tensorflow as tf
from tensorflow import keras


class PatchClassifier(keras.Model):
    def __init__(self, num_classes: int):
        super().__init__()
        self.flatten = keras.layers.Flatten()
        self.hidden = keras.layers.Dense(256, activation="gelu")
        self.head = keras.layers.Dense(num_classes)

    def call(self, images, training=False):
        return self.head(self.hidden(self.flatten(images)))

    def train_step(self, data):
        def _step(batch):
            images, labels = batch
            with tf.GradientTape() as tape:
                logits = self(images, training=True)
                loss = tf.reduce_mean(keras.losses.sparse_categorical_crossentropy(labels, logits, from_logits=True))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            return loss

        return {"loss": _step(data)}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = PatchClassifier(num_classes=10)
    model.compile(optimizer=keras.optimizers.Adam(3e-4))

(x_train, y_train), _ = keras.datasets.cifar10.load_data()
dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64)
model.fit(dataset, epochs=5)
