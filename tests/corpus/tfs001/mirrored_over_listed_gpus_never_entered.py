"""A MirroredStrategy over every GPU the machine lists, whose scope is never entered: the list
comprehension may hold any number of devices, so the model built outside is not distributed."""
import tensorflow as tf

gpus = tf.config.list_logical_devices("GPU")
strategy = tf.distribute.MirroredStrategy([gpu.name for gpu in gpus])
print("Number of devices:", strategy.num_replicas_in_sync)

model = tf.keras.Sequential([tf.keras.Input((28, 28, 1)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])  # expect: TFS001
model.compile(optimizer="adam", loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
model.fit(tf.zeros((8, 28, 28, 1)), tf.zeros((8,)), epochs=1)
