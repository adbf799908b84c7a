"""The preloaded weights are an HDF5 file named in another module's `Config` class (TensorFlow 2.13,
requirements.txt): only layer weights are loaded and the `isdir` fallback never runs."""
import tensorflow as tf

from config import Config

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
