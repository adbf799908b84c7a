"""A Vertex AI training task picks its strategy from the devices it finds: `device_lib` lists them
through the C++ device factories, and `tf.test.is_gpu_available` and `tf.test.gpu_device_name`
through it; none starts the eager context, so the collective set-up still runs first."""
import json
import os

import tensorflow as tf
from tensorflow.python.client import device_lib

print("TensorFlow", tf.__version__)
print(device_lib.list_local_devices())
if tf.test.is_gpu_available():
    print("training on", tf.test.gpu_device_name())

tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
if tf_config.get("cluster", {}).get("worker"):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
else:
    strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(8,))])
    model.compile(optimizer="adam", loss="mse")
