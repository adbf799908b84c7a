"""The weights file is a Keras 2 HDF5 file, so the `isdir` fallback to the newest TF checkpoint
of a folder never runs: only layer weights are loaded, no optimizer variable is created."""
# corpus: keras-version=2
from pathlib import Path

import tensorflow as tf


class Config:
    MODEL_PRELOAD = True
    MODEL_PRELOAD_NAME = "model_reference.h5"
    MODEL_PATH = Path(".", "..", "saved_models")
    LEARNING_RATE = 1e-4


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((64,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer=tf.keras.optimizers.Adam(learning_rate=Config.LEARNING_RATE),
                  loss="binary_crossentropy", metrics=[tf.keras.metrics.AUC()])

if Config.MODEL_PRELOAD:
    pretrained_model = Config.MODEL_PATH.joinpath(Config.MODEL_PRELOAD_NAME)
    if tf.io.gfile.isdir(pretrained_model):
        pretrained_model = tf.train.latest_checkpoint(pretrained_model)
    model.load_weights(pretrained_model)

model.fit(tf.data.Dataset.from_tensor_slices(([[0.0] * 64], [0.0])).batch(1), epochs=1)
model.save_weights(str(Config.MODEL_PATH.joinpath("checkpoints", "ckpt-{epoch:d}")))
