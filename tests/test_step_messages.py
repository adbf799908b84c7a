"""TFS012 says where the direct step runs: inside the scope it is cross-replica context; outside
every scope it runs under the default strategy."""

from __future__ import annotations

from tfscope import engine
from tfscope.config import Settings
from tfscope.source import Source

STEP = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.SGD(0.1)


def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))


{call}
"""


def _message(call: str) -> str:
    analysis = engine.analyze(Source(text=STEP.format(call=call), path="train.py"), Settings(root="."))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS012"]
    return finding.message


def test_a_direct_step_inside_the_scope_runs_in_cross_replica_context() -> None:
    assert "runs in cross-replica context" in _message("with strategy.scope():\n    train_step(1.0, 2.0)")


def test_a_direct_step_outside_every_scope_runs_under_the_default_strategy() -> None:
    message = _message("train_step(1.0, 2.0)")
    assert "runs outside `strategy.run` and every scope, under the default strategy" in message


def test_a_picked_step_is_reported_at_its_pick_and_related_to_the_call_that_runs_it() -> None:
    picks = """
def distributed_step(x, y):
    return strategy.reduce("SUM", strategy.run(train_step, args=(x, y)), axis=None)


def single_steps():
    return train_step


def distributed_steps():
    return distributed_step


with strategy.scope():
    step = single_steps()
    step(1.0, 2.0)
"""
    source = Source(text=STEP.format(call=picks), path="train.py")
    analysis = engine.analyze(source, Settings(root="."))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS012"]
    assert source.text[finding.start:finding.end] == "single_steps()"
    assert "`distributed_steps` returns the steps that go through `strategy.run`" in finding.message
    [related] = finding.related
    assert source.text[related.start:related.end] == "step(1.0, 2.0)"
    assert related.message == "the picked step is called here"
