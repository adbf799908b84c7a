import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
distributed_scope = strategy.scope()

with distributed_scope:
    model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
    optimizer = keras.optimizers.Adam()

with strategy.scope() as current_strategy:
    print(current_strategy.num_replicas_in_sync)
    model.compile(optimizer=optimizer, loss="mse")
