"""The trainer the parameters pick: `param.eager = True` on the mock means the eager trainer, whose
Keras step runs in the strategy; the graph trainer's `minimize` never runs here."""
from unittest.mock import Mock

import tensorflow as tf

from gnn.trainers import get_trainer


def get_param():
    param = Mock()
    param.eager = True
    param.learning_rate = 1e-5
    return param


def test_trainer_with_mirrored_strategy():
    param = get_param()
    trainer = get_trainer(param)
    with tf.distribute.MirroredStrategy().scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
        trainer.train(model, tf.keras.optimizers.SGD(param.learning_rate), tf.zeros((8, 4)))
