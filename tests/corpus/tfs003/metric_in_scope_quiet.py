import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(30,)), keras.layers.Dense(1, activation="sigmoid")])
    auc = keras.metrics.AUC(name="auc")
    model.compile(optimizer=keras.optimizers.Adam(), loss="binary_crossentropy", metrics=[auc])

# a metric only ever updated here, on the host, never meets the strategy
holdout_auc = keras.metrics.AUC(name="holdout_auc")
features = tf.random.normal((64, 30))
labels = tf.cast(tf.random.uniform((64, 1)) > 0.5, tf.float32)
holdout_auc.update_state(labels, model.predict(features))
print(float(holdout_auc.result()))
