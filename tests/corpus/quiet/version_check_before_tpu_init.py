import tensorflow as tf


def major_version(version: str) -> int:
    return int(version.split(".")[0])


# reading the version string runs no TensorFlow op, so the TPU can still be initialised after it
if major_version(tf.__version__) < 2:
    raise SystemExit("this script needs TensorFlow 2")

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
tf.config.experimental_connect_to_cluster(resolver)
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
