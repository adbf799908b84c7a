import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([
        keras.Input(shape=(32,)),
        keras.layers.Dense(64, activation="relu"),
        keras.layers.Dense(10),
    ])

# Keras 3 builds the "adam" optimizer here, under the default strategy
model.compile(  # expect: TFS007
    optimizer="adam",
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    metrics=["accuracy"],
)
model.fit(tf.random.normal((128, 32)), tf.random.uniform((128,), maxval=10, dtype=tf.int32), epochs=2)
