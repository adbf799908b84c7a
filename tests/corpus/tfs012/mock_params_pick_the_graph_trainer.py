"""The trainer the parameters pick: `param.eager = False` on the mock means the graph trainer, whose
`minimize` then runs in the strategy's scope but outside `strategy.run`, in cross-replica context."""
from unittest.mock import Mock

import tensorflow as tf


class GraphSessionTrainer:
    def train(self, model, optimizer, features):
        loss = tf.reduce_mean(model(features))
        return optimizer.minimize(loss, global_step=tf.compat.v1.train.get_or_create_global_step())


class EagerTrainer:
    def train(self, model, optimizer, features):
        model.compile(optimizer=optimizer, loss="mse")
        return model.fit(features, tf.zeros((features.shape[0], 1)), epochs=1)


def get_trainer(param):
    if param.eager:
        return EagerTrainer()
    return GraphSessionTrainer()


def get_param():
    param = Mock()
    param.eager = False
    param.learning_rate = 1e-5
    return param


def test_graph_trainer_with_mirrored_strategy():
    param = get_param()
    trainer = get_trainer(param)
    with tf.distribute.MirroredStrategy().scope():
        model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(1)])
        trainer.train(model, tf.keras.optimizers.SGD(param.learning_rate), tf.zeros((8, 4)))  # expect: TFS012
