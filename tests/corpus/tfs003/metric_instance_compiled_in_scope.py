import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
precision = keras.metrics.Precision(name="precision")  # expect: TFS003
recall = keras.metrics.Recall(name="recall")  # expect: TFS003

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(30,)), keras.layers.Dense(1, activation="sigmoid")])
    model.compile(
        optimizer=keras.optimizers.Adam(),
        loss="binary_crossentropy",
        metrics=[precision, recall, "accuracy"],
    )
