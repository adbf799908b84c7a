"""TFS013 reports a loss once, with the surest reason it meets the strategy: a call in a step run by
the strategy beats a call in its scope, whichever comes first in the file."""

from __future__ import annotations

from tfscope import engine
from tfscope.config import Settings
from tfscope.source import Source

LOSS_IN_SCOPE_AND_STEP = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
loss_object = tf.keras.losses.MeanSquaredError()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)
    baseline = loss_object(tf.zeros((4, 1)), model(tf.zeros((4, 8))))


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = loss_object(y, model(x))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


strategy.run(train_step, args=(tf.zeros((4, 8)), tf.zeros((4, 1))))
"""


def test_a_loss_called_in_a_scope_and_in_a_step_is_reported_for_the_step() -> None:
    source = Source(text=LOSS_IN_SCOPE_AND_STEP, path="train.py")
    analysis = engine.analyze(source, Settings(root=".", keras_version="2"))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS013"]
    assert "is called in a step run by `strategy`" in finding.message
    assert source.position(finding.related[0].start)[0] + 1 == 13


LOSS_IN_COMPILED_FUNCTION = """\
import tensorflow as tf

bce = tf.keras.losses.BinaryCrossentropy()
GLOBAL_BATCH_SIZE = 64


def weighted_bce(y_true, y_pred):
    return 2.0 * bce(y_true, y_pred)


strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1, activation="sigmoid")])
    model.compile(optimizer="adam", loss=weighted_bce)
model.fit(tf.zeros((GLOBAL_BATCH_SIZE, 8)), tf.zeros((GLOBAL_BATCH_SIZE, 1)))
"""


def test_a_loss_called_by_a_compiled_function_names_it_and_offers_no_global_batch_average() -> None:
    source = Source(text=LOSS_IN_COMPILED_FUNCTION, path="train.py")
    analysis = engine.analyze(source, Settings(root=".", keras_version="2"))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS013"]
    assert "is called by `weighted_bce`, which `compile` was given" in finding.message
    # Keras averages the compiled function's result itself: per-example values, not compute_average_loss
    assert finding.message.endswith("return the per-example values")
    assert source.position(finding.related[0].start)[0] + 1 == 8
    assert finding.intent is None
