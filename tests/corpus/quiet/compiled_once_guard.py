# corpus: keras-version=2
"""`fit` compiles only if nobody did: here the scope already did, so the guard skips it."""
import tensorflow as tf


class Trainer:
    def __init__(self, loss_fn):
        self.loss_fn = loss_fn
        self.compiled = False

    def compile(self, model):
        model.compile(loss=self.loss_fn, optimizer=tf.keras.optimizers.Adam(),
                      metrics=[tf.keras.metrics.AUC(curve="PR")])
        self.compiled = True

    def fit(self, model, dataset):
        if not self.compiled:
            self.compile(model)
        model.fit(dataset, epochs=10)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    trainer = Trainer(tf.keras.losses.BinaryCrossentropy())
    trainer.compile(model)
trainer.fit(model, tf.data.Dataset.range(4))
