# corpus: keras-version=2
import tensorflow as tf

# compile exempts a loss object given as a metric too (`MetricsContainer._get_metric_object`)
mae = tf.keras.losses.MeanAbsoluteError()

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(13,))])
    model.compile(optimizer="adam", loss="mse", metrics=[mae])

(x_train, y_train), _ = tf.keras.datasets.boston_housing.load_data()
model.fit(x_train, y_train, batch_size=32, epochs=10)
