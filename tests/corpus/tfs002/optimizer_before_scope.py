import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
optimizer = keras.optimizers.Adam(learning_rate=1e-3)  # expect: TFS002

with strategy.scope():
    model = keras.Sequential([
        keras.Input(shape=(32,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(10),
    ])
    model.compile(
        optimizer=optimizer,
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )

x = tf.random.normal((256, 32))
y = tf.random.uniform((256,), maxval=10, dtype=tf.int32)
model.fit(x, y, batch_size=32, epochs=2)
