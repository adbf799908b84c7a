import tensorflow as tf
from tensorflow.keras.layers import Dense as D
from tensorflow.keras.layers import Input
from tensorflow.keras.models import Sequential

strategy = tf.distribute.MirroredStrategy()
model = Sequential([Input(shape=(8,)), D(16, activation="relu"), D(1)])  # expect: TFS001

with strategy.scope():
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
