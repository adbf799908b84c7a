"""Two trainer classes share a base whose `set_strategy` makes a MirroredStrategy; the script
makes one trainer or the other from its configuration. Whichever runs builds the model in its own
strategy's scope and steps it with that strategy's `run`: one strategy per run, nothing mixed."""
import tensorflow as tf


class BaseTrainer:
    def __init__(self, config):
        self.config = config
        self.set_strategy()

    def set_strategy(self):
        self.strategy = tf.distribute.MirroredStrategy()
        self.global_batch_size = self.config["batch_size"] * self.strategy.num_replicas_in_sync

    def compile(self, model, optimizer):
        with self.strategy.scope():
            self.model = model
            self.model.build((None, None, 80))
            self.optimizer = optimizer

    def one_step(self, batch):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(self.model(batch))
        grads = tape.gradient(loss, self.model.trainable_variables)
        self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))
        return loss

    @tf.function
    def train_step(self, batch):
        losses = self.strategy.run(self.one_step, args=(batch,))
        return self.strategy.reduce(tf.distribute.ReduceOp.SUM, losses, axis=None)

    def fit(self, dataset):
        for batch in self.strategy.experimental_distribute_dataset(dataset):
            self.train_step(batch)


class Tacotron2Trainer(BaseTrainer):
    pass


class FastSpeechTrainer(BaseTrainer):
    pass


class AcousticModel(tf.keras.Model):
    def __init__(self):
        super().__init__()
        self.encoder = tf.keras.layers.Dense(256, activation="relu")
        self.decoder = tf.keras.layers.Dense(80)

    def call(self, inputs):
        return self.decoder(self.encoder(inputs))


def main(config, dataset):
    model = AcousticModel()
    if config["model_name"] == "Tacotron2":
        trainer = Tacotron2Trainer(config)
    else:
        trainer = FastSpeechTrainer(config)
    with trainer.strategy.scope():
        optimizer = tf.keras.optimizers.Adamax(learning_rate=config["learning_rate"])
    trainer.compile(model, optimizer)
    trainer.fit(dataset)
