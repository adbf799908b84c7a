"""TF-Agents networks constructed and given their weights (`create_variables()`, their first
call) in the scope: the PPO trainer handed the strategy trains distributed weights."""
# corpus: keras-version=2
import tensorflow as tf
from tf_agents.networks import network

from trainers import train_ppo


class PolicyNetwork(network.Network):
    def __init__(self, observation_spec, num_actions, name="PolicyNetwork"):
        super().__init__(input_tensor_spec=observation_spec, state_spec=(), name=name)
        self._hidden = tf.keras.layers.Dense(256, activation="relu")
        self._logits = tf.keras.layers.Dense(num_actions)

    def call(self, observations, step_type=None, network_state=(), training=False):
        return self._logits(self._hidden(observations)), network_state


class ValueNetwork(network.Network):
    def __init__(self, observation_spec, name="ValueNetwork"):
        super().__init__(input_tensor_spec=observation_spec, state_spec=(), name=name)
        self._hidden = tf.keras.layers.Dense(256, activation="relu")
        self._value = tf.keras.layers.Dense(1)

    def call(self, observations, step_type=None, network_state=(), training=False):
        return tf.squeeze(self._value(self._hidden(observations)), -1), network_state


def main(observation_spec, num_actions, root_dir):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        actor_net = PolicyNetwork(observation_spec, num_actions)
        value_net = ValueNetwork(observation_spec)
        actor_net.create_variables(training=False)
        value_net.create_variables(training=False)

    train_ppo(root_dir=root_dir, strategy=strategy, actor_net=actor_net, value_net=value_net)
