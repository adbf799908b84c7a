# corpus: keras-version=2
"""Given `num_labels`, `AUC(multi_label=True)` builds its variables at once, outside the scope."""
import tensorflow as tf

metrics = [tf.keras.metrics.AUC(name="auc", multi_label=True, num_labels=5)]  # expect: TFS003


def make_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(5, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=metrics)
    return model


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = make_model()
model.fit(tf.data.Dataset.range(8), epochs=2)
