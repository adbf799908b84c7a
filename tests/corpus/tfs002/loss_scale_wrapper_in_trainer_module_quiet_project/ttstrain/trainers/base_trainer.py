"""A GAN trainer base: it wraps the generator's optimizer for mixed precision when asked, and
makes its checkpoint in the strategy's scope."""
import tensorflow as tf


class GanBasedTrainer:
    def __init__(self, config, strategy, is_generator_mixed_precision=False):
        self.config = config
        self._strategy = strategy
        self._is_generator_mixed_precision = is_generator_mixed_precision
        self.steps = 0

    def set_gen_optimizer(self, generator_optimizer):
        self._gen_optimizer = generator_optimizer
        if self._is_generator_mixed_precision:
            self._gen_optimizer = tf.keras.mixed_precision.experimental.LossScaleOptimizer(
                self._gen_optimizer, "dynamic"
            )

    def compile(self, gen_model, dis_model, gen_optimizer, dis_optimizer):
        self._generator = gen_model
        self._discriminator = dis_model
        self.set_gen_optimizer(gen_optimizer)
        self._dis_optimizer = dis_optimizer

    def create_checkpoint_manager(self, saved_path):
        self.ckpt = tf.train.Checkpoint(
            steps=tf.Variable(1),
            generator=self._generator,
            discriminator=self._discriminator,
            gen_optimizer=self._gen_optimizer,
            dis_optimizer=self._dis_optimizer,
        )
        self.ckp_manager = tf.train.CheckpointManager(self.ckpt, saved_path, max_to_keep=5)

    def _one_step(self, batch):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(self._generator(batch))
        grads = tape.gradient(loss, self._generator.trainable_variables)
        self._gen_optimizer.apply_gradients(zip(grads, self._generator.trainable_variables))
        return loss

    @tf.function
    def _train_step(self, batch):
        per_replica = self._strategy.run(self._one_step, args=(batch,))
        return self._strategy.reduce(tf.distribute.ReduceOp.MEAN, per_replica, axis=None)

    def fit(self, train_data_loader, saved_path):
        dataset = self._strategy.experimental_distribute_dataset(train_data_loader)
        with self._strategy.scope():
            self.create_checkpoint_manager(saved_path)
        for batch in dataset:
            self._train_step(batch)
            self.steps += 1
