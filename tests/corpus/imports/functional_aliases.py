import tensorflow as tf
from tensorflow.keras import Input, Model
from tensorflow.keras.layers import Dense as D

strategy = tf.distribute.MirroredStrategy()

inputs = Input(shape=(8,))
outputs = D(1)(inputs)  # expect: TFS001
model = Model(inputs=inputs, outputs=outputs)

with strategy.scope():
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
