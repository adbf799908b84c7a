"""What a placement finding says about the use that met the strategy, and which strategy that is."""

from __future__ import annotations

from tfscope import engine
from tfscope.config import Settings
from tfscope.source import Source

EVALUATED_UNDER_A_FALLBACK = """\
import tensorflow as tf

try:
    resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="local")
    tf.config.experimental_connect_to_cluster(resolver)
    tf.tpu.experimental.initialize_tpu_system(resolver)
    strategy = tf.distribute.TPUStrategy(resolver)
except ValueError:
    strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")

model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])
with strategy.scope():
    model.evaluate(tf.zeros((4, 8)), tf.zeros((4, 1)))
"""


def test_a_keras_loop_in_the_scope_reads_as_what_ran_the_model_and_names_every_kind() -> None:
    analysis = engine.analyze(Source(text=EVALUATED_UNDER_A_FALLBACK, path="evaluate.py"), Settings(root="."))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS001"]
    assert ("is created outside the strategy scope but is run by `evaluate` inside the `strategy` "
            "(TPUStrategy or OneDeviceStrategy) scope") in finding.message
