"""The TF-Agents networks are built (`create_variables()`) before the strategy's scope is ever
entered, then handed with the strategy to a trainer that trains them under it: their weights are
single-device variables."""
import tensorflow as tf
from tf_agents.networks import actor_distribution_network, value_network

from training import run_ppo


def main(observation_spec, action_spec):
    strategy = tf.distribute.MirroredStrategy()
    actor_net = actor_distribution_network.ActorDistributionNetwork(  # expect: TFS001
        observation_spec, action_spec, fc_layer_params=(256, 256))
    value_net = value_network.ValueNetwork(observation_spec, fc_layer_params=(256, 256))  # expect: TFS001
    actor_net.create_variables()
    value_net.create_variables()
    run_ppo(actor_net=actor_net, value_net=value_net, strategy=strategy)
