"""The smallest inputs behind issue 8's engine findings: each once broke the engine's contract
(never raise, never hang, never drop the findings of a file for one bad spot)."""

from __future__ import annotations

import logging
import time

import pytest

from tfscope import engine
from tfscope.engine import analyze
from tfscope.notebook import mask_ipython
from tfscope.source import Source

HEADER = (
    "import tensorflow as tf\n"
    "strategy = tf.distribute.MirroredStrategy()\n"
    "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
    "with strategy.scope():\n"
    "    model.compile(optimizer='adam', loss='mse')\n"
)
MODEL_LINE = 2  # 0-based line of the TFS001 creation in HEADER
# Linear work takes milliseconds here; the quadratic versions took 3 s to minutes. A bound this
# loose only fails on a complexity regression, never on a loaded machine.
LINEAR_SECONDS = 5.0


def findings(analysis) -> list[tuple[str, int]]:
    return [(d.code, analysis.source.position(d.start)[0]) for d in analysis.diagnostics]


def timed(function, *args):
    start = time.process_time()
    result = function(*args)
    return result, time.process_time() - start


# ---------------------------------------------------------------- quadratic regexes


@pytest.mark.parametrize("blank", ["\n", " \n", "\r\n", "\t\n"], ids=repr)
def test_keras_version_detection_is_linear_in_blank_lines(blank):
    source = Source(blank * 50_000 + "x = 1\n")
    version, seconds = timed(engine.detect_keras_version, source, engine.DEFAULT_SETTINGS)
    assert seconds < LINEAR_SECONDS
    assert version in (2, 3)


def test_keras_version_detection_is_linear_after_a_legacy_flag():
    source = Source("os.environ['TF_USE_LEGACY_KERAS'" + " " * 50_000 + "x\n")
    _, seconds = timed(engine.detect_keras_version, source, engine.DEFAULT_SETTINGS)
    assert seconds < LINEAR_SECONDS


@pytest.mark.parametrize(
    "text",
    ["x = 1; import keras " * 20_000, "x; import keras\n" * 50_000, "x; from tf_keras import a\r" * 50_000],
    ids=["one line", "LF lines", "CR lines"],
)
def test_keras_version_detection_is_linear_in_imports_that_do_not_start_a_line(text):
    version, seconds = timed(engine.detect_keras_version, Source(text), engine.DEFAULT_SETTINGS)
    assert seconds < LINEAR_SECONDS
    assert version == engine.detect_keras_version(Source("x = 1\n"), engine.DEFAULT_SETTINGS)


@pytest.mark.parametrize(
    "text, version",
    [
        ("import tf_keras\n", 2),
        ("  \tfrom tf_keras import layers\n", 2),
        ("x = 1\rimport tf_keras\r", 2),  # a CR-only file: "^" alone never matches after "\r"
        ("os.environ['TF_USE_LEGACY_KERAS'] = '1'\n", 2),
        ("os.environ[\"TF_USE_LEGACY_KERAS\"]  =  \"True\"\n", 2),
        ("os.environ.setdefault('TF_USE_LEGACY_KERAS', '1')\n", 2),
        ("import keras\n", 3),
        ("x = 1\r\n\r\nfrom keras import layers\r\n", 3),
        ("import os\rx = tf_keras\r", None),  # a name on a later CR line is no import
        ("import\nkeras\n", None),
        ("import keras.src\n", None),
    ],
    ids=repr,
)
def test_keras_version_evidence_in_the_file(text, version):
    settings = engine.DEFAULT_SETTINGS
    detected = engine.detect_keras_version(Source(text), settings)
    if version is None:
        assert detected == engine.detect_keras_version(Source("x = 1\n"), settings)
    else:
        assert detected == version


def test_analysis_is_linear_in_blank_lines():
    text = HEADER + "\n" * 30_000 + "y = 1\n"
    analysis, seconds = timed(analyze, Source(text))
    assert findings(analysis) == [("TFS001", MODEL_LINE)]
    assert seconds < LINEAR_SECONDS


def test_notebook_masking_is_linear_on_a_long_run_of_spaces():
    for line in ("x" + " " * 50_000 + "\n", " " * 50_000 + "x\n", "a" + " ," * 25_000 + "\n"):
        masked, seconds = timed(mask_ipython, line)
        assert masked == line
        assert seconds < LINEAR_SECONDS


@pytest.mark.parametrize(
    "line, masked",
    [
        ("files = !ls\n", True),
        ("  x, y = %time f()\n", True),
        ("d['a'] = !cat f\n", True),
        ("x = 1 != 2\n", False),
        ("x == !y\n", False),
    ],
    ids=repr,
)
def test_magic_assignments_are_still_recognised(line, masked):
    assert (mask_ipython(line) != line) is masked


# ---------------------------------------------------------------- never raise


@pytest.mark.parametrize(
    "deep",
    ["-" * 100_000 + "1", "not " * 50_000 + "x", "a" + ".b" * 100_000, "a" + "[0]" * 100_000],
    ids=lambda text: repr(text[:8]),
)
def test_a_file_the_parser_cannot_hold_is_reported_not_analysable(deep, caplog):
    analysis = analyze(Source(HEADER + "y = " + deep + "\n"))
    assert analysis.diagnostics == []
    assert analysis.unanalysable
    assert "cannot be analysed" in caplog.text


# ---------------------------------------------------------------- deep code costs only itself

CHAINS = {
    "elif": "if a:\n    pass\n" + "elif a:\n    pass\n" * 495,
    "sum": "y = " + " + ".join(["a"] * 497) + "\n",
    "attribute": "y = a" + ".b" * 495 + "\n",
    "call": "y = a" + "()" * 495 + "\n",
    "subscript": "y = a" + "[0]" * 495 + "\n",
    "method chain": "y = a" + ".b()" * 495 + "\n",
    "target": "a" + ".b" * 495 + " = 1\n",
}


@pytest.mark.parametrize("chain", CHAINS.values(), ids=CHAINS.keys())
@pytest.mark.parametrize("where", ["before", "after"])
def test_a_long_chain_skips_only_itself_and_says_so(chain, where, caplog):
    caplog.set_level(logging.WARNING)
    text = chain + HEADER if where == "before" else HEADER + chain
    analysis = analyze(Source(text))
    model_line = MODEL_LINE + (chain.count("\n") if where == "before" else 0)
    assert findings(analysis) == [("TFS001", model_line)]
    assert analysis.skipped, "the analysis must record what it left out"
    for start, end in analysis.skipped:
        assert text[start:end].strip() and chain.find(text[start:end]) >= 0
    assert "nested too deeply" in caplog.text and "analysed the rest" in caplog.text
    assert not analysis.unanalysable


def test_a_long_chain_inside_the_scope_keeps_what_is_around_it():
    text = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
        "with strategy.scope():\n"
        "    total = " + " + ".join(["a"] * 600) + "\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
    )
    assert findings(analyze(Source(text))) == [("TFS001", 2)]


def test_ordinary_code_is_never_pruned():
    text = HEADER + "y = " + " + ".join(["a"] * 150) + "\n"
    analysis = analyze(Source(text))
    assert analysis.skipped == [] and analysis.unanalysable is None


# ---------------------------------------------------------------- lines as the tokenizer sees them


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"], ids=repr)
def test_a_line_separator_python_does_not_split_on_keeps_the_repair_in_place(separator):
    text = (
        "import tensorflow as tf\n"
        f"#{separator}page two\n"
        f"NAME = 'a{separator}b'\n"
        f"{separator if separator == chr(12) else ''}\n"  # a form feed alone is a blank line to Python
        "strategy = tf.distribute.MirroredStrategy()\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
        "with strategy.scope():\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
        "x = (\n"  # being typed
    )
    analysis = analyze(Source(text))
    assert findings(analysis) == [("TFS001", 5)]
    assert not analysis.parsed_cleanly


@pytest.mark.parametrize("ending", ["\r", "\r\n"], ids=repr)
def test_cr_and_crlf_files_repair_the_right_line(ending):
    text = ending.join(HEADER.splitlines() + ["x = (", ""])
    assert findings(analyze(Source(text))) == [("TFS001", MODEL_LINE)]


# ---------------------------------------------------------------- odd characters handed in by an editor


def test_a_byte_order_mark_loses_no_findings():
    text = "\ufeff" + HEADER
    analysis = analyze(Source(text))
    assert findings(analysis) == [("TFS001", MODEL_LINE)]
    diagnostic = analysis.diagnostics[0]
    assert text[diagnostic.start : diagnostic.end].startswith("tf.keras.Sequential(")


def test_a_byte_order_mark_keeps_first_line_columns():
    text = (
        "\ufeffimport tensorflow as tf; strategy = tf.distribute.MirroredStrategy(); "
        "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])\n"
        "with strategy.scope():\n"
        "    model.compile(optimizer='adam')\n"
    )
    analysis = analyze(Source(text))
    assert [d.code for d in analysis.diagnostics] == ["TFS001"]
    diagnostic = analysis.diagnostics[0]
    assert text[diagnostic.start : diagnostic.end].startswith("tf.keras.Sequential(")


@pytest.mark.parametrize("where", ["string", "comment", "name line"])
def test_a_lone_surrogate_loses_no_findings(where):
    odd = {"string": "x = '\udcff'\n", "comment": "# \ud800 half a pair\n", "name line": "y = 1  # \udfff\n"}[where]
    text = HEADER.replace("model = ", odd + "model = ", 1)
    analysis = analyze(Source(text))
    assert findings(analysis) == [("TFS001", MODEL_LINE + 1)]
    diagnostic = analysis.diagnostics[0]
    assert text[diagnostic.start : diagnostic.end].startswith("tf.keras.Sequential(")


def test_a_surrogate_before_a_finding_on_the_same_line_keeps_its_column():
    text = HEADER.replace("model = tf", "s = '\udcff'; model = tf", 1)
    analysis = analyze(Source(text))
    diagnostic = analysis.diagnostics[0]
    assert text[diagnostic.start : diagnostic.end].startswith("tf.keras.Sequential(")


# ---------------------------------------------------------------- recovery stays linear


def test_recovery_from_an_empty_block_before_many_blank_lines_is_linear():
    """The last-resort recovery once parsed the whole file again for every blank line."""
    text = HEADER + "class A:\n    def f(self):\n     \n" + "\n" * 30_000 + "   y = 1\n        return y\n"
    analysis, seconds = timed(analyze, Source(text))
    assert findings(analysis) == [("TFS001", MODEL_LINE)]
    assert seconds < LINEAR_SECONDS


def test_an_empty_block_is_repaired_at_its_header():
    text = HEADER.replace("with strategy.scope():", "def later():\n\nwith strategy.scope():")
    analysis = analyze(Source(text))
    assert findings(analysis) == [("TFS001", MODEL_LINE)]


def test_a_two_megabyte_notebook_cell_is_masked_in_linear_time():
    cell = HEADER + ("x = 1  \n" + " " * 60 + "\n") * 30_000  # 2 MB; once 31 s and 1.8 GiB
    masked, seconds = timed(mask_ipython, cell)
    assert masked == cell
    assert seconds < LINEAR_SECONDS
