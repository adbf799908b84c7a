from absl import app
from absl import flags
import tensorflow as tf

flags.DEFINE_string("tpu", "", "TPU name or address; empty means GPUs.")
FLAGS = flags.FLAGS


def create_strategy(tpu_address):
    if not tpu_address:
        return tf.distribute.MirroredStrategy()
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu_address)
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    return tf.distribute.TPUStrategy(resolver)


def main(_):
    # absl calls main exactly once, so the factory runs once
    strategy = create_strategy(FLAGS.tpu)
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        model.fit(tf.random.normal((32, 8)), tf.random.normal((32, 1)), epochs=1)


if __name__ == "__main__":
    app.run(main)
