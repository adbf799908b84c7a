import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])
    optimizer = keras.optimizers.Adam()
    model.compile(optimizer=optimizer, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))

checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)  # expect: TFS005
manager = tf.train.CheckpointManager(checkpoint, directory="ckpts", max_to_keep=3)

x = tf.random.normal((256, 32))
y = tf.random.uniform((256,), maxval=10, dtype=tf.int32)
for epoch in range(5):
    model.fit(x, y, epochs=1, verbose=0)
    manager.save()
