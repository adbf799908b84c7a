"""A Vertex AI trainer sets the input pipeline's sharding before it picks its strategy:
`tf.data.Options()` and the `AutoShardPolicy` enum are plain Python objects (`OptionsBase`,
`enum.IntEnum`), no op runs, so the collective set-up still comes first."""
import argparse
import json
import os

import tensorflow as tf

parser = argparse.ArgumentParser()
parser.add_argument("--distribute", default="single")
args = parser.parse_args()

options = tf.data.Options()
options.experimental_distribute.auto_shard_policy = tf.data.experimental.AutoShardPolicy.DATA

if args.distribute == "multiworker":
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    print("TF_CONFIG", json.loads(os.environ.get("TF_CONFIG", "{}")))
else:
    strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((16,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
dataset = tf.data.Dataset.from_tensor_slices((tf.zeros((64, 16)), tf.zeros((64, 1)))).batch(8).with_options(options)
model.fit(dataset, epochs=1)
