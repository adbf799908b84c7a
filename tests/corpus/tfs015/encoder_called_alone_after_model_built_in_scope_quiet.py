"""The model is built in the scope, which builds the layers its `call` uses: its encoder,
called on its own afterwards to look at the embeddings, is not first built there."""
import tensorflow as tf
from tensorflow import keras


class Encoder(keras.layers.Layer):
    def __init__(self, units):
        super().__init__()
        self.dense = keras.layers.Dense(units, activation="relu")
        self.norm = keras.layers.LayerNormalization()

    def call(self, inputs):
        return self.norm(self.dense(inputs))


class Classifier(keras.Model):
    def __init__(self, num_classes):
        super().__init__()
        self.encoder = Encoder(128)
        self.head = keras.layers.Dense(num_classes)

    def call(self, inputs):
        return self.head(self.encoder(inputs))


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = Classifier(10)
    model.build((None, 784))
    optimizer = keras.optimizers.Adam(1e-3)

(x_train, y_train), _ = keras.datasets.mnist.load_data()
x_train = x_train.reshape(-1, 784).astype("float32") / 255.0
embeddings = model.encoder(x_train[:256])
print("embedding spread before training:", float(tf.math.reduce_std(embeddings)))

dataset = strategy.experimental_distribute_dataset(
    tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(256))


@tf.function
def train_step(batch):
    def step_fn(x, y):
        with tf.GradientTape() as tape:
            per_example = keras.losses.sparse_categorical_crossentropy(y, model(x), from_logits=True)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=256)
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return strategy.run(step_fn, args=batch)


for batch in dataset:
    train_step(batch)
