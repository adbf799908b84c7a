import tensorflow as tf
from official.common import distribute_utils

strategy = distribute_utils.get_distribution_strategy(distribution_strategy="off", num_gpus=0)

with distribute_utils.get_strategy_scope(strategy):
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")

model.fit(tf.random.normal((32, 8)), tf.random.normal((32, 1)), epochs=1)
