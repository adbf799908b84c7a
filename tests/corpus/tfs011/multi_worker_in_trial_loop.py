import json
import os

import tensorflow as tf

tf_config = json.loads(os.environ["TF_CONFIG"])
print("worker", tf_config["task"]["index"])


def make_model():
    return tf.keras.Sequential([tf.keras.Input(shape=(10,)), tf.keras.layers.Dense(1)])


for trial in range(3):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()  # expect: TFS011
    with strategy.scope():
        model = make_model()
        model.compile(optimizer="adam", loss="mse")
