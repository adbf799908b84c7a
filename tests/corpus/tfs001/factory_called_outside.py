import tensorflow as tf
from tensorflow import keras


def build_model(hidden_units: int = 128) -> keras.Model:
    return keras.Sequential([
        keras.Input(shape=(20,)),
        keras.layers.Dense(hidden_units, activation="relu"),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(1, activation="sigmoid"),
    ])


strategy = tf.distribute.MirroredStrategy()
model = build_model(256)  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=keras.optimizers.RMSprop(1e-3), loss="binary_crossentropy")

features = tf.random.normal((512, 20))
labels = tf.cast(tf.random.uniform((512, 1)) > 0.5, tf.float32)
model.fit(features, labels, epochs=5, batch_size=32)
