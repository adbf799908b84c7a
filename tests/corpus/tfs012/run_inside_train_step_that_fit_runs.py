"""A custom `train_step` hands its body to `self.distribute_strategy.run`, but `fit` already
runs `train_step` once per replica through that strategy's `run`: the inner `run` is in replica
context and TensorFlow raises "Method requires being in cross-replica context"."""
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

        per_replica = self.distribute_strategy.run(_step, args=(data,))  # expect: TFS012
        loss = self.distribute_strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)
        return {"loss": loss}


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = PatchClassifier(num_classes=10)
    model.compile(optimizer=keras.optimizers.Adam(3e-4))

(x_train, y_train), _ = keras.datasets.cifar10.load_data()
dataset = tf.data.Dataset.from_tensor_slices((x_train / 255.0, y_train)).batch(64)
model.fit(dataset, epochs=5)
