"""The fixes of TFS008, TFS012, TFS013 and TFS014, end to end: the engine finds the
diagnostic, validates the fix (parses, keeps every token and comment but the ones it names,
the finding gone, nothing new), and the fixed text is what a careful engineer would write."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from test_fixes_support import dedent

from tfscope import engine
from tfscope.diagnostics import Applicability, Edit, Fix
from tfscope.fixes import apply_edits, preserves_code
from tfscope.notebook import notebook_source
from tfscope.source import Source


def diagnostic_of(analysis, code):
    found = [diagnostic for diagnostic in analysis.diagnostics if diagnostic.code == code]
    assert len(found) == 1, [(d.code, d.message) for d in analysis.diagnostics]
    return found[0]


def fixed(source: Source, code: str, title: str, applicability: Applicability) -> str:
    analysis = engine.analyze(source)
    validated = engine.fixes_for(analysis, diagnostic_of(analysis, code))
    assert [fix.title for fix in validated] == [title]
    fix = validated[0]
    assert fix.applicability is applicability and fix.is_preferred
    new_text = apply_edits(source.text, fix.edits)
    assert preserves_code(source, new_text, fix)
    after = engine.analyze(engine.edited_source(source, fix))
    assert code not in {d.code for d in after.diagnostics}
    assert len(after.diagnostics) < len(analysis.diagnostics)
    return new_text


def not_fixed(text: str, code: str) -> None:
    analysis = engine.analyze(Source(dedent(text)))
    assert engine.fixes_for(analysis, diagnostic_of(analysis, code)) == []


# --- TFS012 ---------------------------------------------------------------------------------------

STEP = """
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(2)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.1)


@tf.function
def train_step(features, labels, training=True):
    with tf.GradientTape() as tape:
        per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, model(features, training=training))
        loss = tf.nn.compute_average_loss(per_example, global_batch_size=32)
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


features = tf.random.normal((32, 4))
labels = tf.random.uniform((32,), maxval=2, dtype=tf.int32)
for epoch in range(10):
"""
RUN = "Run it through `strategy.run`"


@pytest.mark.parametrize(
    "call, run",
    [
        ("    loss = train_step(features, labels)  # the step", "    loss = strategy.run(train_step, args=(features, labels))  # the step"),
        ("    train_step((features, labels))", "    strategy.run(train_step, args=((features, labels),))"),
        ("    train_step(features, labels, training=True)",
         '    strategy.run(train_step, args=(features, labels), kwargs={"training": True})'),
        ("    train_step(\n        features,\n        labels,  # one batch\n    )",
         "    strategy.run(train_step, args=(\n        features,\n        labels,  # one batch\n    ))"),
    ],
    ids=["assigned", "one-argument", "keywords", "multi-line"],
)
def test_a_step_called_directly_runs_through_strategy_run(call, run):
    text = dedent(STEP) + call + "\n"
    if "training=True)" in call:
        text = text.replace("def train_step(features, labels, training=True)", "def train_step(features, labels, training)")
    assert fixed(Source(text), "TFS012", RUN, Applicability.UNSAFE) == text.replace(call, run)


def test_a_step_called_with_star_arguments_gets_no_fix():
    not_fixed(STEP + "    train_step(*(features, labels))\n", "TFS012")


def test_a_pick_of_single_device_steps_calls_the_sibling_that_picks_distributed_ones():
    text = dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
            optimizer = tf.keras.optimizers.SGD()


        def local_step(x, y):
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(model(x) - y))
            optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
            return loss


        def run_on_replicas(x, y):
            return strategy.reduce("SUM", strategy.run(local_step, args=(x, y)), axis=None)


        def replicated_step(x, y):
            return run_on_replicas(x, y)


        def steps(compiled):
            return tf.function(local_step) if compiled else local_step


        def distributed_steps(compiled):
            return tf.function(replicated_step) if compiled else replicated_step


        with strategy.scope():
            step = steps(compiled=True)  # graph mode
            for x, y in dataset:
                step(x, y)
        """
    )
    assert fixed(Source(text), "TFS012", "Call `distributed_steps` instead", Applicability.UNSAFE) == text.replace(
        "step = steps(compiled=True)", "step = distributed_steps(compiled=True)")


def test_a_keras_loop_given_to_run_is_called_directly():
    text = dedent(
        """
        import tensorflow as tf
        from tensorflow import keras

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = keras.Sequential([keras.Input(shape=(8,)), keras.layers.Dense(1)])
            model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

        x_batch, y_batch = tf.random.normal((32, 8)), tf.random.normal((32, 1))
        # one batch
        strategy.run(model.train_on_batch, args=[x_batch, y_batch])
        """
    )
    assert fixed(Source(text), "TFS012", "Call it directly, not through `strategy.run`", Applicability.UNSAFE) == (
        text.replace("strategy.run(model.train_on_batch, args=[x_batch, y_batch])", "model.train_on_batch(x_batch, y_batch)")
    )


def test_a_keras_loop_given_to_run_with_kwargs_gets_no_fix():
    not_fixed(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input(shape=(8,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse")
        strategy.run(model.fit, kwargs={"x": tf.zeros((8, 8)), "y": tf.zeros((8, 1))})
        """,
        "TFS012",
    )


# --- TFS013 ---------------------------------------------------------------------------------------

# Keras 2 (tf_keras): a default-reduction loss in a replica raises; Keras 3.8 and later scale it right
LOSS = """
import os

os.environ["TF_USE_LEGACY_KERAS"] = "1"
import tensorflow as tf

BATCH_SIZE_PER_REPLICA = 64
strategy = tf.distribute.MirroredStrategy()
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(28, 28)), tf.keras.layers.Flatten(), tf.keras.layers.Dense(10)])
    optimizer = tf.keras.optimizers.SGD(learning_rate=0.01)
    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
        from_logits=True,  # the model has no softmax
    )


def train_step(inputs):
    images, labels = inputs
    with tf.GradientTape() as tape:
        loss = loss_object(labels, model(images, training=True))
    optimizer.apply_gradients(zip(tape.gradient(loss, model.trainable_variables), model.trainable_variables))
    return loss


@tf.function
def distributed_train_step(dataset_inputs):
    per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
    return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
"""
AVERAGE = 'Use `reduction="none"` and `tf.nn.compute_average_loss`'


def test_a_default_reduction_loss_averages_per_example_over_the_global_batch():
    text = dedent(LOSS)
    assert fixed(Source(text), "TFS013", AVERAGE, Applicability.UNSAFE) == text.replace(
        "        from_logits=True,  # the model has no softmax\n",
        '        from_logits=True, reduction="none",  # the model has no softmax\n',
    ).replace(
        "loss = loss_object(labels, model(images, training=True))",
        "loss = tf.nn.compute_average_loss(loss_object(labels, model(images, training=True)), "
        "global_batch_size=GLOBAL_BATCH_SIZE)",
    )


def test_an_explicit_auto_reduction_is_replaced():
    text = dedent(LOSS).replace(
        "from_logits=True,  # the model has no softmax", "from_logits=True, reduction=tf.keras.losses.Reduction.AUTO"
    ).replace("import tensorflow as tf", "import tensorflow as tf\nimport tf_keras")
    result = fixed(Source(text), "TFS013", AVERAGE, Applicability.UNSAFE)
    assert 'from_logits=True, reduction="none"\n' in result
    assert "compute_average_loss(loss_object(labels" in result


def test_no_loss_fix_without_a_global_batch_size_in_sight():
    not_fixed(LOSS.replace("GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync\n", ""), "TFS013")


def test_no_loss_fix_when_the_loss_is_also_called_outside_the_step():
    not_fixed(LOSS + "\nprint(loss_object(tf.zeros((2,)), tf.zeros((2, 10))))\n", "TFS013")


# --- TFS014 ---------------------------------------------------------------------------------------

MULTI_WORKER = """
import json
import os

import tensorflow as tf

os.environ["TF_CONFIG"] = json.dumps({
    "cluster": {"worker": ["host1:12345", "host2:12345"]},
    "task": {"type": "worker", "index": 0},
})

features = tf.random.normal((1024, 32))
dataset = tf.data.Dataset.from_tensor_slices(features).batch(64)
# the cluster from TF_CONFIG
resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()
strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
"""
FIRST = "Move the strategy's creation before the first TensorFlow operation"


def test_the_strategy_and_its_resolver_move_before_the_first_operation():
    text = dedent(MULTI_WORKER)
    moved = (
        "# the cluster from TF_CONFIG\n"
        "resolver = tf.distribute.cluster_resolver.TFConfigClusterResolver()\n"
        "strategy = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)\n"
    )
    expected = text.replace(moved, "").replace("features = tf.random.normal", moved + "features = tf.random.normal")
    assert fixed(Source(text), "TFS014", FIRST, Applicability.SAFE) == expected


def test_the_strategy_does_not_move_across_code_it_depends_on():
    not_fixed(MULTI_WORKER.replace("TFConfigClusterResolver()", "TFConfigClusterResolver(rpc_layer=features.dtype.name)"),
              "TFS014")


def test_the_strategy_does_not_move_across_a_bare_library_call():
    not_fixed(MULTI_WORKER.replace("# the cluster", "tf.random.set_seed(0)\n# the cluster"), "TFS014")


def test_the_strategy_moves_to_an_earlier_notebook_cell():
    cells = [
        "import tensorflow as tf\nfeatures = tf.random.normal((1024, 32))",
        "strategy = tf.distribute.MultiWorkerMirroredStrategy()",
        "with strategy.scope():\n    model = tf.keras.Sequential([tf.keras.Input(shape=(32,)), tf.keras.layers.Dense(1)])",
    ]
    source = notebook_source([(index, text, None) for index, text in enumerate(cells)])
    result = fixed(source, "TFS014", FIRST, Applicability.SAFE)
    assert result.startswith(
        "import tensorflow as tf\nstrategy = tf.distribute.MultiWorkerMirroredStrategy()\nfeatures = tf.random.normal"
    )


# --- TFS008 ---------------------------------------------------------------------------------------

TWO_STRATEGIES = """
import tensorflow as tf
from tensorflow import keras

gpu_strategy = tf.distribute.MirroredStrategy(devices=["/gpu:0", "/gpu:1"])
eval_strategy = tf.distribute.OneDeviceStrategy(device="/gpu:0")

with eval_strategy.scope():
    # the classifier
    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])

with gpu_strategy.scope():
    model.compile(optimizer=keras.optimizers.Adam(), loss="mse")

model.fit(tf.random.normal((64, 32)), tf.random.normal((64, 10)), epochs=1)
"""


def test_an_object_is_created_in_the_block_of_the_strategy_that_uses_it():
    text = dedent(TWO_STRATEGIES)
    result = fixed(Source(text), "TFS008", "Create it in the `with gpu_strategy.scope():` block that uses it",
                   Applicability.UNSAFE)
    assert result == text.replace(
        "with eval_strategy.scope():\n    # the classifier\n    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])\n\n", ""
    ).replace(
        "with gpu_strategy.scope():\n",
        "with gpu_strategy.scope():\n    # the classifier\n    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])\n",
    )


def test_the_use_moves_when_the_creation_cannot():
    text = dedent(TWO_STRATEGIES).replace(
        "    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])\n",
        "    model = keras.Sequential([keras.Input(shape=(32,)), keras.layers.Dense(10)])\n"
        "    model.summary()\n",
    )
    # the creation cannot leave its block across `model.summary()`: the compile joins it there
    result = fixed(Source(text), "TFS008", "Use it in the `with eval_strategy.scope():` block that creates it",
                   Applicability.UNSAFE)
    assert result == text.replace(
        "\nwith gpu_strategy.scope():\n    model.compile(optimizer=keras.optimizers.Adam(), loss=\"mse\")\n", ""
    ).replace("    model.summary()\n", "    model.summary()\n    model.compile(optimizer=keras.optimizers.Adam(), loss=\"mse\")\n")


def test_nested_scopes_of_two_strategies_get_no_fix():
    not_fixed(
        """
        import tensorflow as tf

        gpu_strategy = tf.distribute.MirroredStrategy()
        cpu_strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
        with gpu_strategy.scope():
            with cpu_strategy.scope():
                model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
        """,
        "TFS008",
    )


# --- validation of rewrites ------------------------------------------------------------------------


def test_a_rewrite_that_touches_a_token_it_does_not_name_is_rejected():
    source = Source("x = train_step(a)  # step\n")
    eats_argument = Fix("run", (Edit(4, 4, "strategy.run("), Edit(14, 14, ", args="), Edit(15, 17, "a,))")),
                        added_tokens=("strategy", ".", "run", "(", ",", "args", "=", ",", ")"))
    assert preserves_code(source, apply_edits(source.text, eats_argument.edits), eats_argument)  # same text
    off_by_one = Fix("run", (Edit(4, 4, "strategy.run("), Edit(14, 14, ", args="), Edit(15, 17, ",))")),
                     added_tokens=("strategy", ".", "run", "(", ",", "args", "=", ",", ")"))
    assert not preserves_code(source, apply_edits(source.text, off_by_one.edits), off_by_one)  # `a` lost
    honest = Fix("run", (Edit(4, 4, "strategy.run("), Edit(14, 14, ", args="), Edit(16, 16, ","), Edit(17, 17, ")")),
                 added_tokens=("strategy", ".", "run", "(", ",", "args", "=", ",", ")"))
    assert apply_edits(source.text, honest.edits) == "x = strategy.run(train_step, args=(a,))  # step\n"
    assert preserves_code(source, apply_edits(source.text, honest.edits), honest)
    lost_comment = Fix("run", honest.edits + (Edit(20, 26, ""),), added_tokens=honest.added_tokens)
    assert not preserves_code(source, apply_edits(source.text, lost_comment.edits), lost_comment)
    declared_lost_comment = Fix("run", lost_comment.edits, added_tokens=honest.added_tokens, removed_tokens=("# step",))
    assert not preserves_code(source, apply_edits(source.text, lost_comment.edits), declared_lost_comment)


# --- the command line picks them up --------------------------------------------------------------


def test_fix_applies_the_safe_ones_and_unsafe_fixes_the_rest(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(dedent(MULTI_WORKER) + "\nfor epoch in range(2):\n    strategy.run(model.fit, args=(features,))\n",
                      encoding="utf-8")

    def check(*flags):
        result = subprocess.run([sys.executable, "-m", "tfscope", "check", "--output-format", "json", *flags, "train.py"],
                                cwd=tmp_path, capture_output=True, text=True, timeout=120)
        return sorted(finding["code"] for finding in json.loads(result.stdout))

    assert check() == ["TFS012", "TFS014"]
    assert check("--fix") == ["TFS012"]
    assert "strategy = tf.distribute.MultiWorkerMirroredStrategy" in script.read_text().split("features =")[0]
    assert check("--fix", "--unsafe-fixes") == []
    assert "    model.fit(features)\n" in script.read_text()


def test_a_loss_class_of_the_project_is_left_to_its_init():
    own_class = dedent(LOSS).replace(
        "strategy = tf.distribute.MirroredStrategy()\n",
        "strategy = tf.distribute.MirroredStrategy()\n\n\n"
        "class FocalLoss(tf.keras.losses.Loss):\n"
        "    def __init__(self, gamma=2.0):\n"
        "        super().__init__(name=\"focal\")\n"
        "        self.gamma = gamma\n\n"
        "    def call(self, y_true, y_pred):\n"
        "        return tf.reduce_sum(y_pred) * self.gamma\n\n\n",
    ).replace(
        "    loss_object = tf.keras.losses.SparseCategoricalCrossentropy(\n"
        "        from_logits=True,  # the model has no softmax\n    )\n",
        "    loss_object = FocalLoss()\n",
    )
    analysis = engine.analyze(Source(own_class))
    (finding,) = [d for d in analysis.diagnostics if d.code == "TFS013"]
    assert own_class[finding.start:finding.end].startswith("super().__init__")
    assert engine.fixes_for(analysis, finding) == []
