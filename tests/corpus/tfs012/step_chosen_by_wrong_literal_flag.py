"""The distributed entry point passes the wrong literal flag: the direct step runs inside
the scope, in cross-replica context."""
import tensorflow as tf


class Trainer:
    def __init__(self, model, optimizer, distribute_strategy=None):
        self.model = model
        self.optimizer = optimizer
        self.distribute_strategy = distribute_strategy

    def multi_gpu_train(self, dataset, epochs=1):
        with self.distribute_strategy.scope():
            dataset = self.distribute_strategy.experimental_distribute_dataset(dataset)
            self.trainer(dataset, epochs, is_distributed=False)

    def single_gpu_train(self, dataset, epochs=1):
        self.trainer(dataset, epochs, is_distributed=False)

    def trainer(self, dataset, epochs, is_distributed=False):
        for _ in range(epochs):
            for inputs, target in dataset:
                if is_distributed:
                    self.distributed_train_step(inputs, target)
                else:
                    self.train_step(inputs, target)

    def basic_train_step(self, inputs, target):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(self.model(inputs, training=True) - target))
        gradients = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.model.trainable_variables))
        return loss

    @tf.function
    def train_step(self, inputs, target):
        return self.basic_train_step(inputs, target)  # expect: TFS012

    @tf.function
    def distributed_train_step(self, inputs, target):
        loss = self.distribute_strategy.run(self.basic_train_step, args=(inputs, target))
        return self.distribute_strategy.reduce(tf.distribute.ReduceOp.MEAN, loss, axis=None)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
    optimizer = tf.keras.optimizers.Adam(1e-3)

features = tf.random.normal((64, 4))
labels = tf.random.normal((64, 1))
dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(16)
Trainer(model, optimizer, distribute_strategy=strategy).multi_gpu_train(dataset, epochs=2)
