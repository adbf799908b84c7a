"""Domain-sampling logits and their optimizer live outside the scope and are updated on the host.
A replica step that would update them is defined in the training function but never called (its
call is commented out), so nothing runs it under the strategy."""
import tensorflow as tf


def train(datasets, build_model, steps=1000):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = build_model()
        optimizer = tf.keras.optimizers.Adam(1e-4)
        domain_rewards = tf.Variable(tf.zeros(len(datasets)), trainable=False)

    domain_logits = tf.Variable(tf.zeros(len(datasets)))
    sampler_optimizer = tf.keras.optimizers.SGD(0.01)

    def _apply_sampler_gradients():
        with tf.GradientTape() as tape:
            loss = -tf.reduce_sum(tf.nn.softmax(domain_logits) * domain_rewards)
        sampler_optimizer.apply_gradients([(tape.gradient(loss, domain_logits), domain_logits)])

    @tf.function
    def _sampler_step():
        with strategy.scope():
            strategy.run(_apply_sampler_gradients)

    @tf.function
    def _host_sampler_step():
        with tf.GradientTape() as tape:
            loss = -tf.reduce_sum(tf.nn.softmax(domain_logits) * domain_rewards)
        sampler_optimizer.apply_gradients([(tape.gradient(loss, domain_logits), domain_logits)])

    for step in range(steps):
        # _sampler_step()
        _host_sampler_step()
    return model, optimizer


if __name__ == "__main__":
    train([tf.data.Dataset.range(8), tf.data.Dataset.range(8)], lambda: tf.keras.Sequential([tf.keras.layers.Dense(1)]))
