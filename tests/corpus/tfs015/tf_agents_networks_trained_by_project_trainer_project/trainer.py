import tensorflow as tf
from rl_agents import create_ppo_agent


def train(root_dir, strategy, actor_net, value_net, learning_rate=3e-4):
    with strategy.scope():
        optimizer = tf.keras.optimizers.Adam(learning_rate=learning_rate, epsilon=1e-5)
        agent = create_ppo_agent(actor_net=actor_net, value_net=value_net, optimizer=optimizer, strategy=strategy)
        agent.initialize()
    return agent
