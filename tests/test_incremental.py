"""Incremental analysis equals a fresh one: typing sessions replayed over the whole corpus
(retyping a flagged line a character at a time, new lines, pastes, deletions, undo), every
version compared on its tree, diagnostics, hovers and validated fixes."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from test_corpus import CORPUS_FILES
from test_project_resolution import TRAIN, project_with_factory

from tfscope import engine
from tfscope.config import Settings
from tfscope.incremental import ChunkedParser, IncrementalAnalyzer, _chunks
from tfscope.notebook import notebook_source, read_notebook
from tfscope.parsing import parse_tolerant
from tfscope.resolve.project import ProjectResolver
from tfscope.source import Source

EXAMPLES = Path(__file__).parent.parent / "examples"


def typing_session(text: str, seed: int) -> list[str]:
    """The versions an editor would send while someone retypes a flagged line, opens and
    fills a new line, pastes a block, deletes a span, and undoes each."""
    rng = random.Random(seed)
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    versions: list[str] = []
    content = [index for index, line in enumerate(lines) if line.strip()]
    if not content:
        return [text, text + "x = 1\n"]
    flagged = [index for index in content if "# expect:" in lines[index]] or content
    retyped = rng.choice(flagged)
    start = starts[retyped]
    body = lines[retyped].rstrip("\r\n")
    for end in range(len(body), -1, -3):  # deleting it, a few characters a keystroke
        versions.append(text[:start] + body[:end] + text[start + len(body):])
    for end in range(len(body) + 1):  # typing it again, half-typed at every step
        versions.append(text[:start] + body[:end] + text[start + len(body):])
    at = starts[rng.choice(content)]
    for typed in ("\n", "\nx", "\nx =", "\nx = 1"):  # a new line below a statement
        line_end = text.index("\n", at) if "\n" in text[at:] else len(text)
        versions.append(text[:line_end] + typed + text[line_end:])
    block_start, block_end = sorted(rng.sample(range(len(starts)), 2))
    paste_at = starts[rng.choice(content)]
    versions.append(text[:paste_at] + text[starts[block_start] : starts[block_end]] + text[paste_at:])
    cut = rng.randrange(len(text))
    versions.append(text[:cut] + text[cut + rng.randrange(1, 40):])
    versions.append(text)  # undone
    return versions


def assert_same(incremental: engine.Analysis, fresh: engine.Analysis, where: str, with_fixes: bool) -> None:
    assert (incremental.tree is None) == (fresh.tree is None), where
    if fresh.tree is not None:
        assert ast.dump(incremental.tree, include_attributes=True) == ast.dump(fresh.tree, include_attributes=True), where
    assert incremental.parsed_cleanly == fresh.parsed_cleanly, where
    assert incremental.diagnostics == fresh.diagnostics, where
    assert [d.intent is None for d in incremental.diagnostics] == [d.intent is None for d in fresh.diagnostics], where
    assert incremental.placements == fresh.placements, where  # the hovers
    assert (incremental.keras_version, incremental.skipped, incremental.unanalysable) == (
        fresh.keras_version, fresh.skipped, fresh.unanalysable), where
    if with_fixes:
        assert engine.validated_fixes(incremental) == engine.validated_fixes(fresh), where


@pytest.mark.parametrize("corpus_file", CORPUS_FILES, ids=lambda corpus_file: corpus_file.name)
def test_a_typing_session_analyses_as_fresh_analyses_do(corpus_file):
    analyzer = IncrementalAnalyzer()
    path = str(corpus_file.path)
    reusing = 0
    for number, text in enumerate(typing_session(corpus_file.text, seed=corpus_file.name)):
        incremental = analyzer.analyze(Source(text, path=path), corpus_file.settings)
        reusing += analyzer.parser.last.reused_chunks > 0
        fresh = engine.analyze(Source(text, path=path), corpus_file.settings)
        # fixes on the clean versions with something to fix: validating them re-analyses
        assert_same(incremental, fresh, f"{corpus_file.name} version {number}",
                    with_fixes=fresh.parsed_cleanly and bool(fresh.diagnostics) and number % 4 == 0)
    assert reusing or len(ast.parse(corpus_file.text).body) < 4, "the session never reused a statement"


def test_a_notebook_typing_session_analyses_as_fresh_analyses_do():
    notebook = read_notebook((EXAMPLES / "flowers_finetune.ipynb").read_text(encoding="utf-8"))
    cells = [(cell.index, notebook.text[cell.start : cell.end], None) for cell in notebook.cells]
    analyzer = IncrementalAnalyzer()
    for cell_number in range(len(cells)):
        index, text, uri = cells[cell_number]
        for number, version in enumerate(typing_session(text, seed=cell_number)):
            edited = [*cells[:cell_number], (index, version, uri), *cells[cell_number + 1:]]
            incremental = analyzer.analyze(notebook_source(edited), Settings())
            fresh = engine.analyze(notebook_source(edited), Settings())
            assert_same(incremental, fresh, f"cell {cell_number} version {number}", with_fixes=number % 8 == 0)


TRAINING_SCRIPT = "".join(corpus_file.text for corpus_file in CORPUS_FILES[:40])


def test_a_one_character_edit_parses_only_the_statements_around_it():
    parser = ChunkedParser()
    parser(TRAINING_SCRIPT)
    assert parser.last.reused_chunks == 0
    source = Source(TRAINING_SCRIPT)
    statement_lines = [min(node.lineno for node in (statement, *getattr(statement, "decorator_list", ()))) - 1
                       for statement in ast.parse(TRAINING_SCRIPT).body]
    middle = source.line_start(statement_lines[len(statement_lines) // 2])  # a top-level statement's line
    edited = TRAINING_SCRIPT[:middle] + "x = 1\n" + TRAINING_SCRIPT[middle:]  # one more line: the rest moves down
    tree, recovered = parser(edited)
    assert not recovered
    assert ast.dump(tree, include_attributes=True) == ast.dump(parse_tolerant(edited)[0], include_attributes=True)
    assert parser.last.parsed_chars < len(edited) * 0.6  # what lies above the edit is kept
    renamed = edited.replace("x = 1\n", "y = 1\n", 1)  # the same lines: only the statements around it
    tree, _ = parser(renamed)
    assert ast.dump(tree, include_attributes=True) == ast.dump(parse_tolerant(renamed)[0], include_attributes=True)
    assert parser.last.parsed_chars < len(renamed) * 0.05
    assert parser.last.reused_chunks > 100



@pytest.mark.parametrize("corpus_file", CORPUS_FILES[::7], ids=lambda corpus_file: corpus_file.name)
def test_the_statements_kept_for_the_next_edit_are_those_a_fresh_split_gives(corpus_file):
    parser = ChunkedParser()
    for number, text in enumerate([*typing_session(corpus_file.text, seed=corpus_file.name), TRAINING_SCRIPT]):
        parser(text)
        assert parser._chunks == _chunks(parser._code, parser._tree), f"{corpus_file.name} version {number}"


FLAGGED = """\
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""


def test_typing_in_a_comment_reuses_the_model_and_reads_the_text_anew():
    analyzer = IncrementalAnalyzer()
    analyzer.analyze(Source(FLAGGED))
    line_end = FLAGGED.index("\n", FLAGGED.index("model = "))
    codes = []
    for comment in ("  #", "  # noqa", "  # noqa: TFS00", "  # noqa: TFS001"):
        text = FLAGGED[:line_end] + comment + FLAGGED[line_end:]
        incremental = analyzer.analyze(Source(text))
        assert analyzer.parser.last.same_tree and analyzer.reused_model, comment
        assert_same(incremental, engine.analyze(Source(text)), comment, with_fixes=True)
        codes.append([d.code for d in incremental.diagnostics])
    assert codes == [["TFS001"], [], ["TFS001"], []]  # the noqa comment is read anew each time
    above = "# a comment line moves every statement down\n" + FLAGGED
    analyzer.analyze(Source(above))
    assert not analyzer.reused_model


def test_a_model_that_read_a_library_a_project_module_hands_on_is_not_reused(tmp_path):
    """`from mypkg.backend import keras` is answered from the project's files, which change apart from
    the edited text: the build is recorded as one that consulted the project, and built again."""
    train = project_with_factory(tmp_path, "import tensorflow.keras as keras\n")
    (tmp_path / "mypkg" / "backend.py").write_text("import tensorflow.keras as keras\n")
    train.write_text("import tensorflow as tf\nfrom mypkg.backend import keras\n\n"
                     "strategy = tf.distribute.MirroredStrategy()\n"
                     "model = keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])\n"
                     "with strategy.scope():\n    model.compile(optimizer=\"adam\", loss=\"mse\")\n")
    resolver = ProjectResolver(root=str(tmp_path))
    analyzer = IncrementalAnalyzer()
    first = analyzer.analyze(Source(train.read_text(), path=str(train)), project=resolver)
    assert [d.code for d in first.diagnostics] == ["TFS001"]
    analyzer.analyze(Source(train.read_text() + "# a comment\n", path=str(train)), project=resolver)
    assert not analyzer.reused_model


def test_a_model_that_looked_up_a_project_module_is_built_again(tmp_path):
    train = project_with_factory(tmp_path, """\
        from tensorflow import keras

        def build_model(units=10):
            return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(units)])
        """)
    # a re-export only jedi follows (a factory `mypkg/models.py` defines is read without it)
    (tmp_path / "mypkg" / "__init__.py").write_text("from mypkg.models import build_model\n")
    train.write_text(TRAIN.replace("from mypkg.models import", "from mypkg import"))
    resolver = ProjectResolver(root=str(tmp_path))
    analyzer = IncrementalAnalyzer()
    assert analyzer.analyze(Source(train.read_text(), path=str(train)), project=resolver).unresolved
    assert resolver.resolve_pending()
    text = train.read_text() + "# jedi answered meanwhile\n"
    incremental = analyzer.analyze(Source(text, path=str(train)), project=resolver)
    assert not analyzer.reused_model
    assert [d.code for d in incremental.diagnostics] == ["TFS001"]
    assert incremental.diagnostics == engine.analyze(Source(text, path=str(train)), project=resolver).diagnostics
