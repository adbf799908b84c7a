"""A Slurm job script: `clear_session()` resets Keras' global state and clears kernel caches
only of a context that already exists, and the Slurm resolver reads the job's environment, so
the collectives are still configured at program start-up."""
import os

import tensorflow as tf

tf.keras.backend.clear_session()
cluster_resolver = tf.distribute.cluster_resolver.SlurmClusterResolver(port_base=12345)
communication_options = tf.distribute.experimental.CommunicationOptions(
    implementation=tf.distribute.experimental.CommunicationImplementation.NCCL)
strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=cluster_resolver,
                                                     communication_options=communication_options)
print("Number of replicas:", strategy.num_replicas_in_sync)
n_workers = int(os.environ["SLURM_NTASKS"])

with strategy.scope():
    model = tf.keras.applications.ResNet50(weights=None, classes=1000)
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1 * n_workers), loss="sparse_categorical_crossentropy")
