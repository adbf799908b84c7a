# corpus: keras-version=2
"""`AUC(multi_label=True)` without `num_labels` has no variable until its first update, which runs
in the training step under the model's strategy: made outside the scope, it is still fine."""
import tensorflow as tf

metrics = [tf.keras.metrics.AUC(name="auc", multi_label=True)]


def make_model():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(5, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="binary_crossentropy", metrics=metrics)
    return model


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = make_model()
model.fit(tf.data.Dataset.range(8), epochs=2)
