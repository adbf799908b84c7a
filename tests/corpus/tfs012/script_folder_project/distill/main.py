# corpus: keras-version=2
"""Run from its own folder (`python main.py`): Python puts `distill/` on sys.path, so `libs` imports."""
import tensorflow as tf

from libs import train


def train_and_export(tpu_name):
    cluster_resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu=tpu_name)
    tf.config.experimental_connect_to_cluster(cluster_resolver)
    tf.tpu.experimental.initialize_tpu_system(cluster_resolver)
    strategy = tf.distribute.TPUStrategy(cluster_resolver)
    with strategy.scope():
        student = tf.keras.Sequential([tf.keras.Input((32, 32, 3)), tf.keras.layers.Conv2D(3, 3, padding="same")])
        trainer = train.Trainer(student, dataset=tf.data.Dataset.from_tensors((tf.zeros((1, 32, 32, 3)),) * 2))
        trainer.train_comparative()  # expect: TFS012
