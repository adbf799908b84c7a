import tensorflow as tf
from tensorflow import keras

train_strategy = tf.distribute.MirroredStrategy()
inference_strategy = tf.distribute.OneDeviceStrategy(device="/cpu:0")


def build() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])


with train_strategy.scope():
    model = build()
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

model.fit(tf.random.normal((64, 8)), tf.random.normal((64, 1)), epochs=1)
model.save("model.keras")

with inference_strategy.scope():
    served = keras.models.load_model("model.keras")
    served.compile(optimizer=keras.optimizers.Adam(), loss="mse")

print(served.predict(tf.random.normal((4, 8))))
