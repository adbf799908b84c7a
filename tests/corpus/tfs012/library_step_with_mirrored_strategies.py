"""A library whose `train_ch8` is handed a strategy and steps outside `run`, while the strategies
the library makes are MirroredStrategy ones: stepped outside `run`, only one copy of each
variable is updated."""
import math

import tensorflow as tf


def try_gpu(i=0):
    if len(tf.config.experimental.list_physical_devices("GPU")) >= i + 1:
        return tf.device(f"/GPU:{i}")
    return tf.device("/CPU:0")


def train_ch6(net_fn, train_iter, num_epochs, lr, device):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        optimizer = tf.keras.optimizers.SGD(learning_rate=lr)
        net = net_fn()
        net.compile(optimizer=optimizer, loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    net.fit(train_iter, epochs=num_epochs, verbose=0)
    return net


def train_epoch_ch8(net, train_iter, loss, updater):
    total, count = 0.0, 0
    for X, Y in train_iter:
        with tf.GradientTape() as tape:
            l = loss(Y, net(X))
        grads = tape.gradient(l, net.trainable_variables)
        updater.apply_gradients(zip(grads, net.trainable_variables))
        total, count = total + float(l), count + 1
    return math.exp(total / count)


def train_ch8(net, train_iter, lr, num_epochs, strategy):
    with strategy.scope():
        loss = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        updater = tf.keras.optimizers.SGD(lr)
    for epoch in range(num_epochs):
        perplexity = train_epoch_ch8(net, train_iter, loss, updater)  # expect: TFS012
    return perplexity
