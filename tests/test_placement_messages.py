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


RECOMPILED_WITH_AN_OPTIMIZER_MADE_OUTSIDE = """\
import tensorflow as tf
{evidence}
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(1e-3), loss="mse")
model.trainable = True
model.compile(optimizer=tf.keras.optimizers.Adam({learning_rate}), loss="mse")
"""


def test_an_optimizer_an_optimizer_v2_would_have_tolerated_names_the_version_evidence(monkeypatch) -> None:
    """Only the optimizers of TensorFlow 2.11 and later (and Keras 3's) break when made outside the
    scope and compiled with a model made in it: the finding says which Keras the evidence gave."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)

    def optimizer_finding(evidence: str, learning_rate: str = "learning_rate=1e-5"):
        text = RECOMPILED_WITH_AN_OPTIMIZER_MADE_OUTSIDE.format(evidence=evidence, learning_rate=learning_rate)
        analysis = engine.analyze(Source(text=text, path="finetune.py"), Settings(root="."))
        return [d.message for d in analysis.diagnostics if d.code == "TFS002"]

    [keras_3] = optimizer_finding("")
    assert keras_3.endswith("(Keras 3: nothing names a version, and Keras 3 is the default since TensorFlow 2.16; "
                            "its optimizers keep the strategy current when they are made)")
    [keras_2] = optimizer_finding("from tensorflow.keras.layers.experimental import preprocessing")
    assert "(Keras 2: the file uses Keras-2-only APIs; its optimizers since TensorFlow 2.11" in keras_2
    assert optimizer_finding("", learning_rate="lr=1e-5") == []  # `lr=`: an OptimizerV2 Keras
    # a dated header (keras-io's) before TensorFlow 2.11 means OptimizerV2; after Keras 3 it names nothing
    assert optimizer_finding('"""Last modified: 2020/07/16"""') == []
    [dated_2_11] = optimizer_finding('"""Last modified: 2023-02-14"""')
    assert "(Keras 2: the file says it was last modified on 2023-02-14, when TensorFlow 2.11 was the newest" in dated_2_11
    [after_keras_3] = optimizer_finding('"""Last modified: 2024/01/08"""')
    assert "(Keras 3: nothing names a version" in after_keras_3
    [impossible_day] = optimizer_finding('"""Last modified: 2020/02/31"""')
    assert "(Keras 3: nothing names a version" in impossible_day


USED_AFTER_THE_TPU_WAS_INITIALISED_AGAIN = """\
import tensorflow as tf

resolver = tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
tf.tpu.experimental.initialize_tpu_system(resolver)
strategy = tf.distribute.TPUStrategy(resolver)
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    optimizer = tf.keras.optimizers.Adam(1e-3)
    model.compile(optimizer=optimizer, loss="mse")
    steps = tf.Variable(0)
model.fit(tf.zeros((4, 8)), tf.zeros((4, 1)))
tf.tpu.experimental.initialize_tpu_system(resolver)
steps.assign_add(1)
model.predict(tf.zeros((4, 8)))
model.load_weights("weights.h5")
model.fit(tf.zeros((4, 8)), tf.zeros((4, 1)))
"""


def test_what_the_tpu_wipe_asks_for_depends_on_what_was_wiped() -> None:
    """A variable is made again, a model may also be reloaded, an optimizer is replaced."""
    text = USED_AFTER_THE_TPU_WAS_INITIALISED_AGAIN
    analysis = engine.analyze(Source(text=text, path="tpu.py"), Settings(root="."))
    remedies = {text.count("\n", 0, d.start) + 1: d.message.split("wipes its variables; ")[1]
                for d in analysis.diagnostics if d.code == "TFS014"}
    assert remedies == {
        13: "create it again after the initialisation",
        14: "create it again after the initialisation, or load every weight back into it (`load_weights`)",
        16: "create a new optimizer after the initialisation and compile with it",
    }


RESTORED_FROM_A_FACTORY_OF_THREE_PATHS = """\
# Last modified: 2020/10/05 (TensorFlow 2.3: OptimizerV2 makes a restore's slots under the current strategy)
import tensorflow as tf


def generator(im_size):
    if im_size == 256:
        return tf.keras.Sequential([tf.keras.layers.Dense(256)])
    elif im_size == 512:
        return tf.keras.Sequential([tf.keras.layers.Dense(512)])
    return tf.keras.Sequential([tf.keras.layers.Dense(1024)])


def main(im_size, resume):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = generator(im_size)
        optimizer = tf.keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    checkpoint.restore(tf.train.latest_checkpoint(resume))
    model.compile(optimizer=optimizer, loss="mse")
    model.fit(tf.data.Dataset.range(4), epochs=1)
"""


def test_a_restore_names_each_restored_object_once_however_many_paths_made_it() -> None:
    analysis = engine.analyze(Source(text=RESTORED_FROM_A_FACTORY_OF_THREE_PATHS, path="train.py"), Settings(root="."))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS006"]
    assert "restores `model` (generator()), `optimizer` (keras.optimizers.Adam) outside" in finding.message


COMPILED_IN_THE_SCOPE_WITH_EITHER_OPTIMIZER = """\
import tensorflow as tf

def train(lr_plan, num_gpus, lr=1e-3):
    model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
    if lr_plan:
        optimizer = tf.keras.optimizers.SGD(1e-8)
    else:
        optimizer = tf.keras.optimizers.SGD(lr)
    if num_gpus > 1:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model.compile(optimizer=optimizer, loss="mse")
    model.fit(tf.zeros((4, 8)), tf.zeros((4, 1)))
"""


def test_the_path_named_is_the_one_every_meeting_shares() -> None:
    """The compile in the scope takes either optimizer: the model meets the strategy whatever
    `lr_plan` is, so the message names `num_gpus > 1` alone."""
    analysis = engine.analyze(Source(text=COMPILED_IN_THE_SCOPE_WITH_EITHER_OPTIMIZER, path="train.py"), Settings(root="."))
    [finding] = [d for d in analysis.diagnostics if d.code == "TFS001"]
    assert finding.message.endswith("scope when `num_gpus > 1`; create it inside `with strategy.scope():`"), finding.message
