"""A fine-tuning stage in a pipeline framework: `build(b)` makes the strategy and the model in its
scope and keeps them on the stage's state object; `train(b)` makes its metric and compiles that
model in the same scope, which it reads from the state."""
import tensorflow as tf


class Stage:
    """What a pipeline hands each step of a stage."""


class FinetuneState(Stage):
    model: tf.keras.Model
    strategy: tf.distribute.Strategy
    optimizer: tf.keras.optimizers.Optimizer


def build(b: FinetuneState) -> None:
    b.strategy = tf.distribute.MirroredStrategy()
    with b.strategy.scope():
        inputs = tf.keras.Input(shape=(128,), dtype=tf.int32)
        x = tf.keras.layers.Embedding(30522, 64)(inputs)
        x = tf.keras.layers.GlobalAveragePooling1D()(x)
        outputs = tf.keras.layers.Dense(2)(x)
        b.model = tf.keras.Model(inputs, outputs)
        b.optimizer = tf.keras.optimizers.Adam(2e-5)


def train(b: FinetuneState, dataset) -> None:
    with b.strategy.scope():
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
        accuracy = tf.keras.metrics.SparseCategoricalAccuracy("accuracy")
        b.model.compile(b.optimizer, loss=loss_fn, metrics=[accuracy])
    b.model.fit(dataset, epochs=3)


def realize(b: FinetuneState, dataset) -> None:
    build(b)
    train(b, dataset)
