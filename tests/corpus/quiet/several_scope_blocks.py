import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])

with strategy.scope():
    optimizer = keras.optimizers.Adam(1e-3)

with strategy.scope():
    metrics = [keras.metrics.SparseCategoricalAccuracy(), keras.metrics.SparseTopKCategoricalAccuracy(k=3)]

with strategy.scope():
    model.compile(optimizer=optimizer, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=metrics)

model.fit(tf.random.normal((128, 32)), tf.random.uniform((128,), maxval=10, dtype=tf.int32), epochs=1)
