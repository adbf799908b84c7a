import tensorflow as tf
from tensorflow import keras


def build_model() -> keras.Model:
    return keras.Sequential([keras.Input(shape=(16,)), keras.layers.Dense(32, activation="relu"), keras.layers.Dense(1)])


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = build_model()
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

model.fit(tf.random.normal((256, 16)), tf.random.normal((256, 1)), epochs=2)

# an unreplicated copy for CPU inference: it never meets the strategy
cpu_model = build_model()
cpu_model.set_weights(model.get_weights())
cpu_model.compile(optimizer="adam", loss="mse")
print(cpu_model.predict(tf.random.normal((4, 16))))
