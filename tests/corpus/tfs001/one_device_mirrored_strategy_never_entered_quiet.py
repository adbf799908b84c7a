"""A MirroredStrategy over one listed device, whose scope the notebook no longer enters (the
model is placed by hand with `tf.device`): one replica distributes nothing, so a model built
outside it trains the same."""
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0"])
print("Number of devices:", strategy.num_replicas_in_sync)

# with strategy.scope():
with tf.device("/gpu:0"):
    model = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(tf.zeros((8, 28, 28, 1)), tf.zeros((8,)), epochs=1)
