import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
BATCH_SIZE = 64 * strategy.num_replicas_in_sync

# the strategy only scales the batch size: no scope is ever entered, so training uses one device
model = keras.Sequential([  # expect: TFS001
    keras.Input(shape=(784,)),
    keras.layers.Dense(256, activation="relu"),
    keras.layers.Dense(10),
])
model.compile(
    optimizer="adam",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)

(x_train, y_train), _ = keras.datasets.mnist.load_data()
model.fit(x_train.reshape(-1, 784) / 255.0, y_train, batch_size=BATCH_SIZE, epochs=3)
