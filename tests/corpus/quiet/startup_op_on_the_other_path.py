"""The single-GPU path lists and configures devices with TensorFlow ops; the multi-worker path
creates its strategy first. The two paths exclude each other, so no op precedes the strategy."""
import json
import os

import tensorflow as tf

on_single_gpu = "TF_CONFIG" not in os.environ
if on_single_gpu:
    tf.constant(0.0)  # warm-up op on the one-device path
    strategy = tf.distribute.OneDeviceStrategy("/gpu:0")
else:
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    task = json.loads(os.environ["TF_CONFIG"])["task"]

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
