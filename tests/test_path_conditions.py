"""How a finding names the path it needs: negated comparisons are named as written, and the script
guard (`if __name__ == "__main__":`) is not named, since it holds whenever the file runs."""

from __future__ import annotations

from tfscope import engine
from tfscope.config import Settings
from tfscope.model.joins import contradicts
from tfscope.source import Source

SCRIPT = """\
import tensorflow as tf


def main(model_type, gpu_num, known_models):
    optimizer = tf.keras.optimizers.Adam()
    if gpu_num >= 2 and model_type not in known_models:
        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")


if __name__ == "__main__":
    main("unet", 2, {})
"""


def _messages(text: str) -> list[str]:
    analysis = engine.analyze(Source(text=text, path="train.py"), Settings(root="."))
    return [d.message for d in analysis.diagnostics if d.code == "TFS002"]


def test_path_is_named_without_the_script_guard_or_a_double_negation() -> None:
    [message] = _messages(SCRIPT)
    assert "when `gpu_num >= 2 and model_type not in known_models`" in message
    assert "__main__" not in message


def test_a_negated_membership_is_named_as_written() -> None:
    text = SCRIPT.replace("gpu_num >= 2 and model_type not in known_models", "model_type not in known_models")
    [message] = _messages(text)
    assert "when `model_type not in known_models`" in message


MULTI_WORKER = """\
import tensorflow as tf


def allow_memory_growth():
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
    print(len(tf.config.list_logical_devices("GPU")), "logical GPUs")


def main(args):
    if args.allow_memory_growth:
        allow_memory_growth()
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = tf.keras.applications.ResNet50(weights=None)
    return model


if __name__ == "__main__":
    main(parse_args())
"""


def test_a_startup_finding_names_the_path_its_first_op_runs_on() -> None:
    analysis = engine.analyze(Source(text=MULTI_WORKER, path="train.py"), Settings(root="."))
    [message] = [d.message for d in analysis.diagnostics if d.code == "TFS014"]
    assert "(one runs before it when `args.allow_memory_growth`)" in message


def test_a_startup_finding_on_every_path_names_none() -> None:
    text = MULTI_WORKER.replace("    if args.allow_memory_growth:\n        allow_memory_growth()", "    allow_memory_growth()")
    analysis = engine.analyze(Source(text=text, path="train.py"), Settings(root="."))
    [message] = [d.message for d in analysis.diagnostics if d.code == "TFS014"]
    assert "when" not in message


def test_an_elif_chain_is_named_by_the_branch_taken_not_by_every_branch_passed() -> None:
    text = SCRIPT.replace(
        "    if gpu_num >= 2 and model_type not in known_models:\n",
        "    if model_type == \"resnet\":\n        pass\n    elif model_type == \"vit\":\n        pass\n"
        "    elif model_type == \"unet\":\n").replace('main("unet", 2, {})', "main(input(), 2, {})")
    [message] = _messages(text)
    assert "when `model_type == 'unet'`;" in message


def test_a_test_on_a_parameter_is_named_as_its_code_spells_it() -> None:
    # the test is on `gpu_num`, which speaks of `args.gpus` where the call passed it: the message
    # still names the test the reader sees in `main`
    text = SCRIPT.replace('    main("unet", 2, {})', "    args = parse_args()\n    main(args.model, args.gpus, {})")
    [message] = _messages(text)
    assert "when `gpu_num >= 2 and model_type not in known_models`" in message
    assert "args." not in message


CORRELATED = """\
import tensorflow as tf


def make_optimizer(distributed):
    if distributed:
        return "adam"  # compile builds it, in the scope
    return tf.keras.optimizers.Adam()


def main(args):
    optimizer = make_optimizer(args.multi_gpu)
    strategy = tf.distribute.MirroredStrategy()
    if args.multi_gpu:
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")
    else:
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
        model.compile(optimizer=optimizer, loss="mse")


if __name__ == "__main__":
    main(parse_args())
"""


def test_a_parameter_tested_in_a_helper_correlates_with_the_same_value_tested_by_its_caller() -> None:
    # the helper builds an optimizer only when `not args.multi_gpu`, where nothing is compiled in the scope
    assert _messages(CORRELATED) == []
    # passed another flag, it may be built on the path that compiles in the scope
    [message] = _messages(CORRELATED.replace("make_optimizer(args.multi_gpu)", "make_optimizer(args.tpu)"))
    assert "when not `distributed` and `args.multi_gpu`" in message


def test_a_parameter_the_helper_binds_again_speaks_of_its_new_value() -> None:
    # `distributed` is no longer what the call passed: the helper's optimizer may exist with `args.multi_gpu`
    rebound = CORRELATED.replace("def make_optimizer(distributed):\n",
                                 "def make_optimizer(distributed):\n    distributed = os.environ.get(\"DISTRIBUTED\")\n")
    [message] = _messages("import os\n" + rebound)
    assert "when not `distributed` and `args.multi_gpu`" in message


def test_a_nested_function_tests_what_its_enclosing_call_was_passed() -> None:
    nested = CORRELATED.replace(
        "def make_optimizer(distributed):\n    if distributed:\n        return \"adam\"  # compile builds it, in the scope\n"
        "    return tf.keras.optimizers.Adam()\n",
        "def make_optimizer(distributed):\n    def pick():\n        if distributed:\n            return \"adam\"\n"
        "        return tf.keras.optimizers.Adam()\n    return pick()\n")
    assert nested != CORRELATED
    assert _messages(nested) == []


def test_an_and_or_test_is_decided_by_what_the_other_path_says_of_its_operands() -> None:
    compound = ("strategy is not None and not keras_fit", False)
    assert contradicts([compound], [("strategy", True), ("keras_fit", False)])
    assert not contradicts([compound], [("strategy", True), ("keras_fit", True)])
    assert not contradicts([compound], [("strategy", True)])  # `keras_fit` undecided
    assert contradicts([("a or b", True)], [("a", False), ("b", False)])
    # a negated `and` (`if not (a and b):`) is the `and` not held
    assert contradicts([("a and b", False)], [("a", True), ("b", True)])


def test_a_name_pinned_to_a_literal_decides_the_other_comparisons_of_it() -> None:
    # `experiment == "residual"` cannot hold where `experiment in ["WDC"]` did (two `if` chains on one setting)
    assert contradicts([("experiment in ['WDC']", True)], [("experiment == 'residual'", True)])
    assert contradicts([("args.run == 'train'", True)], [("args.run in ['eval', 'export']", True)])
    assert contradicts([("mode == 'train'", True)], [("mode in ['train', 'finetune']", False)])
    assert not contradicts([("mode == 'train'", True)], [("mode == 'eval'", False)])  # `mode != "eval"`, as stored
    assert not contradicts([("experiment in ['WDC']", True)], [("experiment == 'residual'", False)])
    assert not contradicts([("experiment in ['WDC', 'DC']", True)], [("experiment == 'DC'", True)])
    assert not contradicts([("experiment == 'WDC'", True)], [("other == 'residual'", True)])


def test_a_nested_function_nobody_calls_runs_on_the_path_its_definition_ran_on() -> None:
    """A step defined only when a strategy is given exists only then: what it makes is on that
    path, so objects made only on the other path never reach it (baskerville's trainer)."""
    import ast

    from tfscope.config import DEFAULT_SETTINGS
    from tfscope.model.builder import ModelBuilder
    from tfscope.resolve.catalog import Api

    text = """\
import os

import tensorflow as tf


def make_step(model, strategy=None):
    if strategy is not None:
        def replica_step(x):
            optimizer = tf.keras.optimizers.Adam()
            optimizer.apply_gradients(zip([x], model.trainable_variables))
        return replica_step


strategy = tf.distribute.MirroredStrategy() if os.environ.get("MULTI_GPU") else None
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
step = make_step(model, strategy)
"""
    model = ModelBuilder(ast.parse(text), 3, DEFAULT_SETTINGS, path="steps.py").build()
    [optimizer] = [owner for owner in model.owners if owner.kind is Api.OPTIMIZER]
    assert ("strategy", True) in optimizer.condition
    assert contradicts(optimizer.condition, (("strategy", False),))
