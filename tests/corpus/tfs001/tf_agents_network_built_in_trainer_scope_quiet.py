"""A TF-Agents network owns no weights until its first call: constructed before the strategy
exists, it is built (`create_variables()`) inside the trainer's scope, so its weights are the
strategy's."""
import tensorflow as tf
from tf_agents.networks import actor_distribution_network, value_network

from training import run_ppo


def create_agent_variables(strategy, actor_net, value_net, learning_rate):
    with strategy.scope():
        actor_net.create_variables()
        value_net.create_variables()
        optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate)
    return optimizer


def main(observation_spec, action_spec, learning_rate=3e-4):
    actor_net = actor_distribution_network.ActorDistributionNetwork(
        observation_spec, action_spec, fc_layer_params=(256, 256))
    value_net = value_network.ValueNetwork(observation_spec, fc_layer_params=(256, 256))
    strategy = tf.distribute.MirroredStrategy()
    optimizer = create_agent_variables(strategy, actor_net, value_net, learning_rate)
    run_ppo(actor_net=actor_net, value_net=value_net, optimizer=optimizer, strategy=strategy)
