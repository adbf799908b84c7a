"""A guide-style notebook with no version anywhere: `tf.keras.losses.Reduction` exists only in
Keras 2 (Keras 3 takes a string), so this runs on TF <= 2.15, where compile enters the model's
strategy itself."""
import tensorflow as tf

mirrored_strategy = tf.distribute.MirroredStrategy()

with mirrored_strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(1,))])

model.compile(loss="mse", optimizer="sgd")
dataset = tf.data.Dataset.from_tensors(([1.0], [1.0])).repeat(100).batch(10)
model.fit(dataset, epochs=2)

loss_object = tf.keras.losses.BinaryCrossentropy(from_logits=True, reduction=tf.keras.losses.Reduction.NONE)
