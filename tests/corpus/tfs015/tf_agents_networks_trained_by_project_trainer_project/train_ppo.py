"""The networks are constructed in the scope, but their variables are created after it; the
trainer in `trainer.py` hands them, with the strategy, to an agent that trains them under it."""
import tensorflow as tf
from tf_agents.networks import network

import trainer


class ValueNetwork(network.Network):
    def __init__(self, observation_spec, name="ValueNetwork"):
        super().__init__(input_tensor_spec=observation_spec, state_spec=(), name=name)
        self._hidden = tf.keras.layers.Dense(128, activation="relu")
        self._value = tf.keras.layers.Dense(1)

    def call(self, observations, step_type=None, network_state=(), training=False):
        return tf.squeeze(self._value(self._hidden(observations)), -1), network_state


class PolicyNetwork(ValueNetwork):
    def __init__(self, observation_spec, num_actions, name="PolicyNetwork"):
        super().__init__(observation_spec, name=name)
        self._value = tf.keras.layers.Dense(num_actions)


def main(observation_spec, num_actions, root_dir):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        actor_net = PolicyNetwork(observation_spec, num_actions)
        value_net = ValueNetwork(observation_spec)
    actor_net.create_variables(training=False)  # expect: TFS015
    value_net.create_variables(training=False)  # expect: TFS015
    trainer.train(root_dir, strategy, actor_net, value_net)
