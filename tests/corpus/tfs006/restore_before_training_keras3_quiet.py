import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])
    optimizer = keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)

manager = tf.train.CheckpointManager(checkpoint, "checkpoints", max_to_keep=3)
# resuming right after construction: Keras 3's optimizer makes its slots at `build` (in `fit`,
# under the model's strategy); the restore only holds their values until then
checkpoint.restore(manager.latest_checkpoint)

with strategy.scope():
    model.compile(optimizer=optimizer, loss="mse")

model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 10)), epochs=1)
manager.save()
