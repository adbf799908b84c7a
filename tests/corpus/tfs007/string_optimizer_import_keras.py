import keras
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    inputs = keras.Input(shape=(64,))
    outputs = keras.layers.Dense(3, activation="softmax")(inputs)
    model = keras.Model(inputs, outputs)

model.compile(optimizer="sgd", loss="categorical_crossentropy")  # expect: TFS007
