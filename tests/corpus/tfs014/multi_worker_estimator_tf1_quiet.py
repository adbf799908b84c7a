"""TF1-era Estimator code: graph mode by default, so the collective set-up has no eager context
to find initialised, whatever ran before."""
import json
import os

import tensorflow as tf
from tensorflow.python.client import device_lib

USE_TPU = os.environ.get("USE_TPU") == "1"

if USE_TPU:
    tf.Session.reset(os.environ["TPU_GRPC_URL"])
local_device_protos = device_lib.list_local_devices()
num_gpus = sum(1 for d in local_device_protos if d.device_type == "GPU")
tf_config = json.loads(os.environ.get("TF_CONFIG", "{}"))
batch_size = tf.constant(64 * max(num_gpus, 1))
strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
run_config = tf.estimator.RunConfig(train_distribute=strategy)
