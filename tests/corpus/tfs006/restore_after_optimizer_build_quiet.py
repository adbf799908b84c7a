import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(4)])
    optimizer = keras.optimizers.Adam()
    # the slot variables exist from here on: a later restore only assigns values
    optimizer.build(model.trainable_variables)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)

checkpoint.restore(tf.train.latest_checkpoint("checkpoints")).expect_partial()

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")
model.fit(tf.random.normal((64, 16)), tf.random.normal((64, 4)), epochs=1)
