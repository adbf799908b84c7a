"""A dropped analysis is freed by reference counting: no cycle is left for the collector to find
(which costs a scan of every object of the analysis, syntax tree included, on each keystroke)."""

from __future__ import annotations

import ast
import gc
import weakref
from pathlib import Path
from types import SimpleNamespace

import pytest

from tfscope.config import DEFAULT_SETTINGS
from tfscope.engine import analyze
from tfscope.model.builder import ModelBuilder
from tfscope.model.context import Frame
from tfscope.model.entities import Owner
from tfscope.model.values import ClassValue, Function
from tfscope.source import Source

CORPUS = sorted((Path(__file__).parent / "corpus").rglob("*.py"))

# factories called in and out of a scope, a subclassed model, its methods, a step run by the strategy
SCRIPT = '''
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()


def build_model(units):
    def block(x):
        return keras.layers.Dense(units)(x)
    inputs = keras.Input(shape=(4,))
    return keras.Model(inputs, block(inputs))


class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.dense = keras.layers.Dense(1)

    def call(self, inputs):
        return self.dense(inputs)


with strategy.scope():
    model = build_model(8)
    net = Net()
    optimizer = keras.optimizers.Adam()
other = build_model(4)


@tf.function
def step(x):
    strategy.run(lambda y: model(y), args=(x,))
'''

_INTERPRETER_OBJECTS = (ast.AST, Frame, Function, ClassValue, Owner)


def _cyclic_garbage_after_dropping(text: str) -> list:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        analysis = analyze(Source(text))
        assert analysis.model is not None
        del analysis
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return [item for item in gc.garbage if isinstance(item, _INTERPRETER_OBJECTS)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()


def test_a_dropped_analysis_leaves_no_cycle_of_its_tree_frames_functions_or_owners():
    assert _cyclic_garbage_after_dropping(SCRIPT) == []


@pytest.mark.parametrize("path", CORPUS[::10], ids=lambda path: path.stem)
def test_no_corpus_file_leaves_its_analysis_to_the_collector(path):
    assert _cyclic_garbage_after_dropping(path.read_text()) == []


class OneModuleProject:
    """A project whose module ``helpers`` is ``code``, as jedi would have found it."""

    has_pending = False

    def __init__(self, code: str) -> None:
        self.tree = ast.parse(code)
        self.cached: dict | None = None

    def lookup(self, importer, module, name):
        line = next(node.lineno for node in self.tree.body if getattr(node, "name", None) == name)
        return SimpleNamespace(path="helpers.py", line=line), self.tree

    def uses_tensorflow_1_apis(self, path) -> bool:
        return False

    def reexported_library(self, importer, module, name):
        return None  # `helpers` hands on no library's name

    def definitions(self, tree, keras_version, interpret) -> dict:
        if self.cached is None:  # kept for every later build, as the project's cache keeps them
            self.cached = interpret()[0]
        return self.cached


def test_a_build_that_ran_another_modules_code_keeps_its_frames():
    """That code may have kept this file's functions in its module's objects, which later builds reach."""
    project = OneModuleProject("REGISTERED = []\n\ndef register(function):\n    REGISTERED.append(function)\n"
                               "    return function\n")
    tree = ast.parse("from helpers import register\n\ndef make():\n    return 1\n\nregister(make)\n")
    builder = ModelBuilder(tree, 3, DEFAULT_SETTINGS, path="train.py", project=project)
    builder.build()
    assert builder.ran_external_code
    assert all(function.closure is not None for function in builder.functions if function.node.name == "make")


def test_an_answer_kept_per_node_goes_with_its_node():
    """What the analysis keeps per syntax node (``per_node``) is worked out once per node and never
    keeps an edited file's old nodes alive."""
    from tfscope.astutil import per_node

    asked = []

    @per_node
    def names_read(node: ast.AST) -> frozenset[str]:
        asked.append(node)
        return frozenset(part.id for part in ast.walk(node) if isinstance(part, ast.Name))

    tree = ast.parse("model.fit(data, epochs=epochs)")
    assert names_read(tree) == names_read(tree) == {"model", "data", "epochs"}
    assert len(asked) == 1
    asked.clear()
    gone = weakref.ref(tree)
    del tree
    assert gone() is None  # freed by reference counting: the cache holds no strong reference


def test_a_script_run_reuses_a_module_s_places_only_while_its_tree_lives(tmp_path):
    """Every script's run reads the project's same trees: their places are worked out once, and go
    with the tree (an edited module's old tree takes them along)."""
    from tfscope import script_runs

    module = tmp_path / "trainer.py"
    module.write_text("import tensorflow as tf\n\n\ndef fit(model):\n    model.fit(tf.zeros((1, 1)))\n")
    tree = ast.parse(module.read_text())
    kept_before = len(script_runs._PLACES)
    places = script_runs._places_of(str(module), tree)
    assert script_runs._places_of(str(module), tree) is places
    call = tree.body[1].body[0].value
    assert places.holds(call) and places.statement(call) == ("    model.fit(tf.zeros((1, 1)))", 1)
    gone = weakref.ref(tree)
    del tree, call
    assert gone() is None
    assert len(script_runs._PLACES) == kept_before
