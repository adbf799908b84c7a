"""SEED RL's design: one TPUStrategy over every core holds the variables, a second over a subset
of the same TPU system (`device_assignment=`) trains on them."""
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver("")
topology = tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.experimental.TPUStrategy(resolver)
training_da = tf.tpu.experimental.DeviceAssignment.build(topology, num_replicas=1)
training_strategy = tf.distribute.experimental.TPUStrategy(resolver, device_assignment=training_da)

with strategy.scope():
    weights = tf.Variable(1.0, trainable=True)
    gradient_buffer = tf.Variable(0.0, trainable=False, synchronization=tf.VariableSynchronization.ON_READ)


@tf.function
def compute_gradients():
    with tf.GradientTape() as tape:
        tape.watch(weights)
        loss = weights * 2
    gradient_buffer.assign(tape.gradient(loss, weights))
    return loss


training_strategy.run(compute_gradients, ())
