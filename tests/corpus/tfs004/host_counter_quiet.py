import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
# bookkeeping on the host: never updated inside a replica step
epoch_counter = tf.Variable(0, dtype=tf.int64, trainable=False, name="epoch")
best_val_loss = tf.Variable(float("inf"), trainable=False)

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

features, targets = tf.random.normal((128, 8)), tf.random.normal((128, 1))
for _ in range(3):
    history = model.fit(features, targets, validation_split=0.2, epochs=1, verbose=0)
    best_val_loss.assign(tf.minimum(best_val_loss, history.history["val_loss"][-1]))
    epoch_counter.assign_add(1)
