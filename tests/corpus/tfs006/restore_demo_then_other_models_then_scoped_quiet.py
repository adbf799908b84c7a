"""A Keras overview tutorial, one section after another: the save/restore demo's `model` is
replaced by the next sections' models long before the distribution section builds its own in
the scope, so no restored weights are lost to that one."""
import numpy as np
import tensorflow as tf
from tensorflow.keras import layers

train_x = np.random.random((1000, 72))
train_y = np.random.random((1000, 10))

# Save and restore weights
model = tf.keras.Sequential([layers.Dense(64, activation="relu", input_shape=(72,)),
                             layers.Dense(10, activation="softmax")])
model.compile(optimizer=tf.keras.optimizers.Adam(0.001), loss="categorical_crossentropy", metrics=["accuracy"])
model.save_weights("./weights/model")
model.load_weights("./weights/model")

# Save the whole model
model = tf.keras.Sequential([layers.Dense(10, activation="softmax", input_shape=(72,)),
                             layers.Dense(10, activation="softmax")])
model.compile(optimizer="rmsprop", loss="categorical_crossentropy", metrics=["accuracy"])
model.fit(train_x, train_y, batch_size=32, epochs=5)
model.save("all_model.h5")

# Distribution
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential()
    model.add(layers.Dense(16, activation="relu", input_shape=(10,)))
    model.add(layers.Dense(1, activation="sigmoid"))
    model.compile(loss="binary_crossentropy", optimizer=tf.keras.optimizers.SGD(0.2))

x = tf.cast(np.random.random((1024, 10)), tf.float32)
y = np.random.randint(2, size=(1024, 1))
model.fit(tf.data.Dataset.from_tensor_slices((x, y)).shuffle(1024).batch(32), epochs=1)
