"""Fixes in notebooks: every edit inside one cell, magics never touched or crossed."""

from __future__ import annotations

from test_fixes_support import applied, notebook, statement

from tfscope.diagnostics import PlaceInScope
from tfscope.fixes import apply_edits, candidate_fixes, noqa_fix, noqa_suppressions, preserves_code

SETUP = "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()"


def place(source, tree, statement_prefix, with_blocks=1):
    intent = PlaceInScope(
        statement(source, tree, statement_prefix),
        "strategy",
        tuple(statement(source, tree, "with ", n) for n in range(with_blocks)),
        statement(source, tree, "strategy ="),
    )
    return candidate_fixes(intent, source, tree)


def assert_edits_inside_cells(source, fix):
    for edit in fix.edits:
        assert any(cell.start <= edit.start and edit.end <= cell.end for cell in source.cells), edit


def test_move_from_one_cell_into_the_block_of_a_later_cell():
    source, tree = notebook(SETUP, "model = build_model()", "with strategy.scope():\n    optimizer = tf.keras.optimizers.Adam()")
    move = place(source, tree, "model =")[0]
    assert move.title == "Move into `with strategy.scope():`"
    assert_edits_inside_cells(source, move)
    assert applied(source, move) == (
        SETUP
        + "\n"
        + "\n"  # the emptied cell
        + "with strategy.scope():\n    model = build_model()\n    optimizer = tf.keras.optimizers.Adam()\n"
    )


def test_move_up_into_a_block_that_ends_its_cell():
    source, tree = notebook(SETUP + "\nwith strategy.scope():\n    model = build_model()", "optimizer = tf.keras.optimizers.Adam()")
    move = place(source, tree, "optimizer =")[0]
    assert_edits_inside_cells(source, move)
    assert applied(source, move) == (
        SETUP + "\nwith strategy.scope():\n    model = build_model()\n    optimizer = tf.keras.optimizers.Adam()\n" + "\n"
    )


def test_a_magic_in_between_blocks_the_move_but_not_the_wrap():
    source, tree = notebook(
        SETUP,
        "model = build_model()\n!nvidia-smi",
        "with strategy.scope():\n    optimizer = tf.keras.optimizers.Adam()",
    )
    candidates = place(source, tree, "model =")
    assert [fix.title for fix in candidates] == ["Wrap in `with strategy.scope():`"]
    assert_edits_inside_cells(source, candidates[0])
    assert applied(source, candidates[0]) == (
        SETUP
        + "\nwith strategy.scope():\n    model = build_model()\n!nvidia-smi\n"
        + "with strategy.scope():\n    optimizer = tf.keras.optimizers.Adam()\n"
    )


def test_the_wrap_of_a_cells_last_line_stays_inside_the_cell():
    source, tree = notebook(SETUP + "\n%matplotlib inline\nmodel = build_model()", "model.summary()")
    wrap = place(source, tree, "model =", with_blocks=0)[0]
    assert_edits_inside_cells(source, wrap)
    assert applied(source, wrap) == (
        SETUP + "\n%matplotlib inline\nwith strategy.scope():\n    model = build_model()\n" + "model.summary()\n"
    )


def test_validation_rejects_a_lost_or_edited_magic():
    source, _ = notebook(SETUP + "\n%matplotlib inline\nmodel = build_model()")
    assert preserves_code(source, source.text)
    assert not preserves_code(source, source.text.replace("%matplotlib inline\n", ""))
    assert not preserves_code(source, source.text.replace("%matplotlib inline", "%matplotlib notebook"))


def test_noqa_in_a_notebook_skips_magic_lines():
    source, _ = notebook(SETUP, "!pip install keras  # noqa\nmodel = build_model()")
    magic_line = source.line_of(source.cells[1].start)
    assert noqa_fix(source, "TFS001", magic_line) is None
    assert noqa_suppressions(source) == {}
    fix = noqa_fix(source, "TFS001", magic_line + 1)
    assert_edits_inside_cells(source, fix)
    assert apply_edits(source.text, fix.edits).endswith("model = build_model()  # noqa: TFS001\n")
