import tensorflow as tf
from tensorflow import keras


def build_optimizer(base_learning_rate: float) -> keras.optimizers.Optimizer:
    # inside a scope this is that scope's strategy
    replicas = tf.distribute.get_strategy().num_replicas_in_sync
    return keras.optimizers.SGD(learning_rate=base_learning_rate * replicas, momentum=0.9)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.Input(shape=(10,)), keras.layers.Dense(1)])
    model.compile(optimizer=build_optimizer(0.01), loss="mse")

model.fit(tf.random.normal((64, 10)), tf.random.normal((64, 1)), epochs=1)
