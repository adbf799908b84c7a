import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()

# a learning-rate schedule owns no variables: building it here is fine
lr_schedule = keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=1000, decay_rate=0.96)
optimizer = keras.optimizers.SGD(learning_rate=lr_schedule)  # expect: TFS002

with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(3,)), keras.layers.Dense(1)])
    model.compile(optimizer=optimizer, loss="mse")
