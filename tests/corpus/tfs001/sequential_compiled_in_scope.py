import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

# the model is built before the scope: its weights are plain, not mirrored
model = keras.Sequential([  # expect: TFS001
    keras.Input(shape=(32,)),
    keras.layers.Dense(64, activation="relu"),
    keras.layers.Dense(10, activation="softmax"),
])

with strategy.scope():
    optimizer = keras.optimizers.Adam(learning_rate=1e-3)
    model.compile(
        optimizer=optimizer,
        loss="sparse_categorical_crossentropy",
        metrics=["accuracy"],
    )

x = tf.random.normal((1024, 32))
y = tf.random.uniform((1024,), maxval=10, dtype=tf.int32)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
model.fit(dataset, epochs=3)
