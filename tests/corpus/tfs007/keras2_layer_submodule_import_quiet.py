"""A Kaggle TPU notebook converted to a script (2022): it imports `Conv2D` from
`keras.layers.convolutional`, a module only Keras 2 has (Keras 3 exports its layers from
`keras.layers` alone), so compile enters the model's strategy itself."""
import tensorflow as tf
from keras.layers import Dense, Dropout, Flatten, Input
from keras.layers.convolutional import Conv2D, MaxPooling2D
from keras.models import Sequential

tpu = tf.distribute.cluster_resolver.TPUClusterResolver()
tf.config.experimental_connect_to_cluster(tpu)
tf.tpu.experimental.initialize_tpu_system(tpu)
strategy = tf.distribute.experimental.TPUStrategy(tpu)

with strategy.scope():
    model = Sequential([
        Input(shape=(192, 192, 3)),
        Conv2D(32, 3, activation="relu"),
        MaxPooling2D(),
        Flatten(),
        Dropout(0.2),
        Dense(104, activation="softmax"),
    ])

model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["sparse_categorical_accuracy"])
