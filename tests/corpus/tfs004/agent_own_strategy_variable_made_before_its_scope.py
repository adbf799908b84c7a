"""A world-model agent (Dreamer-style): its constructor makes the TPUStrategy and builds its networks
in that scope, but its exploration noise scale is a variable made before the scope, which every
replica's step decays: the finding belongs on that line of the constructor, not on the script's
`Agent()`, whose own code places everything else."""
import collections

import tensorflow as tf


class ConvEncoder(tf.Module):
    def __init__(self, depth: int = 32):
        super().__init__(name="encoder")
        self.conv = tf.keras.layers.Conv2D(depth, 4, strides=2, activation="relu")
        self.flatten = tf.keras.layers.Flatten()

    def __call__(self, image):
        return self.flatten(self.conv(image))


class Agent(tf.Module):
    def __init__(self, learning_rate: float = 6e-4):
        super().__init__(name="agent")
        with tf.device("cpu:0"):
            self._step = tf.Variable(0, dtype=tf.int64)
        self._noise = tf.Variable(0.3, trainable=False)  # expect: TFS004
        self._metrics = collections.defaultdict(tf.keras.metrics.Mean)
        resolver = tf.distribute.cluster_resolver.TPUClusterResolver()
        tf.config.experimental_connect_to_cluster(resolver)
        tf.tpu.experimental.initialize_tpu_system(resolver)
        self._strategy = tf.distribute.TPUStrategy(resolver)
        with self._strategy.scope():
            self._encode = ConvEncoder()
            self._head = tf.keras.layers.Dense(1)
            self._optimizer = tf.keras.optimizers.Adam(learning_rate)

    def train(self, data):
        self._strategy.run(self._train, args=(data,))
        self._step.assign_add(1)

    def _train(self, data):
        with tf.GradientTape() as tape:
            prediction = self._head(self._encode(data["image"]))
            per_example = tf.square(prediction - data["reward"])
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=64)
        variables = self._encode.trainable_variables + self._head.trainable_variables
        self._optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
        self._noise.assign(self._noise * 0.999)
        return loss


agent = Agent()
agent.train({"image": tf.zeros((64, 64, 64, 3)), "reward": tf.zeros((64, 1))})
