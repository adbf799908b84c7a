"""Fix validation in batches: the same fixes as validating one at a time, for far fewer
re-analyses (counted by the engine's own counter), and none at all when nobody asked."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_corpus import CORPUS_FILES
from test_fixes_support import dedent

from tfscope import cli, engine
from tfscope.config import Settings
from tfscope.notebook import read_notebook
from tfscope.source import Source

EXAMPLES = Path(__file__).parent.parent / "examples"

# Three independent mistakes, each with its own fix: one batch validates them all.
THREE_FIXES = dedent(
    """
    import tensorflow as tf
    from tensorflow import keras

    strategy = tf.distribute.MirroredStrategy()
    model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])
    optimizer = keras.optimizers.Adam()
    accuracy = keras.metrics.SparseCategoricalAccuracy()
    with strategy.scope():
        model.compile(optimizer=optimizer, loss="mse", metrics=[accuracy])
    """
)

FAILING_AND_HOLDING = dedent(
    """
    import tensorflow as tf
    from tensorflow import keras
    from tensorflow.keras import layers

    strategy = tf.distribute.MirroredStrategy()

    inputs = keras.Input(shape=(28, 28, 1))
    x = layers.Conv2D(32, 3, activation="relu")(inputs)
    x = layers.GlobalAveragePooling2D()(x)
    outputs = layers.Dense(10)(x)
    model = keras.Model(inputs, outputs, name="mnist_cnn")
    optimizer = keras.optimizers.Adam()

    with strategy.scope():
        model.compile(optimizer=optimizer, loss="mse")
    """
)


def analyses_during(function, *args):
    before = engine.analysis_runs.value
    result = function(*args)
    return result, engine.analysis_runs.value - before


def one_at_a_time(analysis: engine.Analysis) -> list:
    return [engine.fixes_for(analysis, diagnostic) for diagnostic in analysis.diagnostics]


def corpus_analyses():
    for corpus_file in CORPUS_FILES:
        yield corpus_file.name, engine.analyze(Source(corpus_file.text, path=str(corpus_file.path)), corpus_file.settings)
    for path in sorted(EXAMPLES.glob("*.py")):
        yield path.name, engine.analyze(Source(path.read_text(encoding="utf-8"), path=str(path)), Settings())
    for path in sorted(EXAMPLES.glob("*.ipynb")):
        yield path.name, engine.analyze(read_notebook(path.read_text(encoding="utf-8"), str(path)), Settings())


def test_batch_validation_finds_exactly_the_fixes_of_one_at_a_time_on_the_corpus():
    batched_runs = single_runs = fixed_files = 0
    for name, analysis in corpus_analyses():
        expected, single = analyses_during(one_at_a_time, analysis)
        batched, runs = analyses_during(engine.validated_fixes, analysis)
        assert batched == expected, name
        batched_runs, single_runs = batched_runs + runs, single_runs + single
        fixed_files += any(expected)
    print(f"\nre-analyses to validate the corpus's fixes: {batched_runs} in batches, {single_runs} one at a time")
    assert fixed_files > 20, "the corpus should hold many fixable files"
    assert batched_runs < single_runs


def test_independent_fixes_cost_one_re_analysis_together():
    analysis = engine.analyze(Source(THREE_FIXES))
    assert sorted(d.code for d in analysis.diagnostics) == ["TFS001", "TFS002", "TFS003"]
    batched, runs = analyses_during(engine.validated_fixes, analysis)
    assert all(len(fixes) == 1 for fixes in batched)
    assert runs == 1
    _, single = analyses_during(one_at_a_time, analysis)
    assert single == 3


def test_a_batch_that_fails_falls_back_to_one_at_a_time():
    # moving the first layer call into the scope does not fix the model (the layers around it
    # stay outside): that fix fails, so its batch with the optimizer's fix fails too
    analysis = engine.analyze(Source(FAILING_AND_HOLDING))
    assert [d.code for d in analysis.diagnostics] == ["TFS001", "TFS002"]
    batched, runs = analyses_during(engine.validated_fixes, analysis)
    assert batched == one_at_a_time(analysis)
    assert batched[0] == [] and len(batched[1]) == 1
    assert runs == 3  # the batch, then each of its fixes alone


def test_fix_all_applies_a_held_batch_without_analysing_it_again():
    analysis = engine.analyze(Source(THREE_FIXES))
    (fixed, count), runs = analyses_during(engine.fix_until_stable, analysis)
    assert count == 3 and fixed.diagnostics == []
    assert runs == 1  # the batch that held is the fixed analysis: nothing left to validate after it


@pytest.mark.parametrize(
    ("options", "validates"),
    [
        (["--output-format", "github"], False),
        (["--output-format", "pylint"], False),
        (["--output-format", "concise", "--silent"], False),
        (["--output-format", "github", "--show-fixes"], True),
        (["--output-format", "github", "--statistics"], True),
        (["--output-format", "concise"], True),
        (["--output-format", "json"], True),
    ],
)
def test_check_validates_fixes_only_when_the_report_shows_them(tmp_path, monkeypatch, capsys, options, validates):
    (tmp_path / "train.py").write_text(THREE_FIXES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    exit_code, runs = analyses_during(cli.main, ["check", "train.py", "--no-respect-gitignore", *options])
    capsys.readouterr()
    assert exit_code == 1
    assert runs == (2 if validates else 1)
