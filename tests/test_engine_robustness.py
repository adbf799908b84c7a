"""The engine never raises on any text: half-typed code, odd bytes, deep nesting, huge files."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfscope.engine import analyze, fixes_for
from tfscope.model.object_methods import _OWNER_METHODS
from tfscope.source import Source

CORPUS = sorted((Path(__file__).parent / "corpus").rglob("*.py"))
SAMPLE = [path for index, path in enumerate(CORPUS) if index % 6 == 0]


@pytest.mark.parametrize("path", SAMPLE, ids=lambda path: path.stem)
def test_every_prefix_of_a_real_script_is_analysed_without_error(path):
    """What an editor sees while the file is typed from top to bottom."""
    text = path.read_text()
    for end in range(0, len(text), 7):
        analysis = analyze(Source(text[:end]))
        for diagnostic in analysis.diagnostics:
            assert 0 <= diagnostic.start <= diagnostic.end <= end
            fixes_for(analysis, diagnostic)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x00",
        "with strategy.scope(:\n    model = keras.Sequential()\n",
        "def f(:\n" * 50,
        "(" * 5000,
        "x = " + "[" * 300 + "]" * 300 + "\n",
        "if x:\n" + "".join("    " * depth + "if x:\n" for depth in range(1, 120)) + "    " * 120 + "pass\n",
        "s = '''unterminated\nmodel = keras.Sequential()\n",
        "\ufeffimport tensorflow as tf\r\nstrategy = tf.distribute.MirroredStrategy()\r",
        "import tensorflow as tf\nx = '\udcff'\n",
        "\t\t model = 1\n  \tmodel2 = 2\n",
        "lambda: (yield)\nclass A(A): pass\nA()\n",
        "def f(): return f()\nf()\n",
        "class M(tf.keras.Model):\n    def __init__(self): super().__init__(); self.m = M()\nM()\n",
    ],
    ids=lambda text: repr(text[:20]),
)
def test_hostile_text_is_analysed_without_error(text, caplog):
    analysis = analyze(Source(text))
    assert isinstance(analysis.diagnostics, list)
    # the engine's last-resort guard (too deep to analyse) must not be what kept it alive
    assert "nested too deeply" not in caplog.text


def test_a_model_compiled_with_its_own_compute_loss_is_analysed(caplog):
    """Hugging Face's TF models: `compile(loss=model.compute_loss)`, whose call is the compiled loss."""
    text = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "with strategy.scope():\n"
        "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "    model.compile(optimizer='adam', loss=model.compute_loss)\n"
        "model.fit(tf.zeros((8, 4)), tf.zeros((8, 1)))\n"
    )
    analysis = analyze(Source(text))
    assert analysis.tree is not None and analysis.unanalysable is None
    assert "nested too deeply" not in caplog.text


def test_a_huge_generated_file_is_analysed():
    block = (
        "with strategy.scope():\n    model_{i} = keras.Sequential([keras.layers.Dense({i})])\n"
        "optimizer_{i} = keras.optimizers.Adam()\nmodel_{i}.compile(optimizer=optimizer_{i})\n"
    )
    text = "import tensorflow as tf\nfrom tensorflow import keras\nstrategy = tf.distribute.MirroredStrategy()\n"
    text += "".join(block.format(i=i) for i in range(5000))
    analysis = analyze(Source(text))
    assert sum(d.code == "TFS002" for d in analysis.diagnostics) == 5000


def test_a_broken_block_header_mid_file_hides_nothing_after_its_block():
    text = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "if tf.test.is_gpu_available():\n"
        "    batch = 64\n"
        "else\n"  # the colon is missing: the whole else-block cannot parse
        "    batch = 8\n"
        "    lr = 0.1\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "with strategy.scope():\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
    )
    analysis = analyze(Source(text))
    assert [(d.code, analysis.source.position(d.start)[0]) for d in analysis.diagnostics] == [("TFS001", 7)]
    assert not analysis.parsed_cleanly


def test_an_unexpected_indent_mid_file_hides_nothing_after_it():
    text = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "x = 1\n"
        "        y = 2\n"
        "        z = 3\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "with strategy.scope():\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
    )
    analysis = analyze(Source(text))
    assert [(d.code, analysis.source.position(d.start)[0]) for d in analysis.diagnostics] == [("TFS001", 5)]


def test_a_name_that_alternates_between_strategies_is_analysed():
    text = (
        "import tensorflow as tf\n"
        "gpus = tf.distribute.MirroredStrategy()\n"
        "cpu = tf.distribute.OneDeviceStrategy('/cpu:0')\n"
        "strategy = gpus\n"
        "strategy = cpu\n"
        "strategy = gpus\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "with strategy.scope():\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
    )
    assert [d.code for d in analyze(Source(text)).diagnostics] == ["TFS001"]


def test_the_cycle_collector_is_paused_only_while_analysing():
    """Analysis pauses CPython's collector (quadratic on big syntax trees) and leaves it as found."""
    import gc

    from tfscope import engine
    from tfscope.parsing import parse_tolerant
    from tfscope.source import Source

    seen = []

    def parse_noting_the_collector(code):
        seen.append(gc.isenabled())
        return parse_tolerant(code)

    try:
        for enabled in (True, False):
            (gc.enable if enabled else gc.disable)()
            engine.analyze(Source("import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"),
                           parse=parse_noting_the_collector)
            assert gc.isenabled() is enabled
    finally:
        gc.enable()
    assert seen == [False, False]


ALIASED_METHOD_CALLS = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
    optimizer = tf.keras.optimizers.Adam()
    variable = tf.Variable(0.0)
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
for receiver in (model, optimizer, variable, checkpoint):
    method = receiver.{name}
    method(tf.zeros((4, 2)), tf.zeros((4, 1)))
"""


@pytest.mark.parametrize("name", sorted(_OWNER_METHODS), ids=str)
def test_a_keras_method_called_through_an_alias_is_analysed(name):
    """`fit = model.fit; fit(x, y)`: the call's node is a name, not the method's attribute."""
    analysis = analyze(Source(ALIASED_METHOD_CALLS.format(name=name)))
    assert analysis.tree is not None and isinstance(analysis.diagnostics, list)


def test_a_recursive_function_runs_once_but_a_factory_given_other_strings_runs_again():
    """Recursion is not followed (config classes recursing through each other would multiply the
    work); the same factory asked for another kind of object (`build("loss")` inside
    `build("model")`, a registry's `build_from_config`) runs once more, and no deeper."""
    code = (
        "import tensorflow as tf\n"
        "\n"
        "def build(kind, depth):\n"
        "    model = tf.keras.Sequential([tf.keras.layers.Dense(4)])\n"
        "    if depth:\n"
        "        build(kind, depth - 1)\n"
        "    if kind == 'model':\n"
        "        build('loss', depth)\n"
        "    return model\n"
        "\n"
        "build('model', 3)\n"
    )
    model = analyze(Source(code)).model
    # each run of `build` makes one Dense layer of its own (the model it returns is re-sited at its caller)
    runs = [owner for owner in model.owners if owner.label == "keras.layers.Dense"]
    assert len(runs) == 2
