"""A OneDeviceStrategy places the variables on one GPU and the loop steps them directly, outside
`run` and the scope (Dive into Deep Learning's `train_ch8`). Its variables exist once, so the
default strategy's update changes the only copy, and OptimizerV2 makes its slots in the scope
it was created in (`add_slot` under `_distribution_strategy_scope()`): nothing breaks."""
import math

import tensorflow as tf

device_name = "/GPU:0" if tf.config.list_physical_devices("GPU") else "/CPU:0"
strategy = tf.distribute.OneDeviceStrategy(device_name)
with strategy.scope():
    net = tf.keras.Sequential([tf.keras.Input((28,)), tf.keras.layers.Dense(28)])
    loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    updater = tf.keras.optimizers.SGD(1.0)


def train_epoch(train_iter):
    total, count = 0.0, 0
    for X, Y in train_iter:
        with tf.GradientTape() as tape:
            l = loss(Y, net(X))
        grads = tape.gradient(l, net.trainable_variables)
        updater.apply_gradients(zip(grads, net.trainable_variables))
        total, count = total + float(l), count + 1
    return math.exp(total / count)


for epoch in range(10):
    perplexity = train_epoch(tf.data.Dataset.from_tensor_slices((tf.zeros((8, 28)), tf.zeros((8,), tf.int32))).batch(4))
