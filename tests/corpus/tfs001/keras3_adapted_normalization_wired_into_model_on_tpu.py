"""Tabular regression on a Colab TPU with Keras 3: the adapted Normalization layer is made outside
the scope and wired into the model built in it. A TPU replica cannot read a variable left on the
host, so its state must be made in the scope even though Keras 3's compile checks nothing."""
import numpy as np
import tensorflow as tf

features = np.random.rand(4096, 12).astype("float32")
targets = np.random.rand(4096, 1).astype("float32")

resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

normalizer = tf.keras.layers.Normalization()
normalizer.adapt(features)
inputs = tf.keras.Input(shape=(12,))
normalized = normalizer(inputs)  # expect: TFS001

with strategy.scope():
    hidden = tf.keras.layers.Dense(64, activation="relu")(normalized)
    outputs = tf.keras.layers.Dense(1)(hidden)
    model = tf.keras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="mse")

model.fit(features, targets, batch_size=128, epochs=5)
