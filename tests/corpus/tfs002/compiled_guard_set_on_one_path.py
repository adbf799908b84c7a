# corpus: keras-version=2
"""`compile` ran in the scope on one path only: on the other, `fit`'s guard compiles outside it."""
import sys

import tensorflow as tf


class Trainer:
    def __init__(self):
        self.compiled = False

    def compile(self, model):
        model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")  # expect: TFS002
        self.compiled = True

    def fit(self, model, dataset):
        if not self.compiled:
            self.compile(model)
        model.fit(dataset, epochs=2)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
    trainer = Trainer()
    if "--fresh" in sys.argv:
        print("compiling when training starts")
    else:
        trainer.compile(model)
trainer.fit(model, tf.data.Dataset.range(4))
