"""preserves_code and apply_edits: a fix that drops or corrupts one character is rejected."""

from __future__ import annotations

import pytest
from test_fixes_support import snippet

from tfscope.diagnostics import Edit
from tfscope.fixes import apply_edits, preserves_code

ORIGINAL = '''\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
# Build under the strategy.
model = tf.keras.Sequential([tf.keras.layers.Dense(10)])  # head
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
'''

WRAPPED = '''\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    # Build under the strategy.
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])  # head
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
'''

MOVED = '''\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    # Build under the strategy.
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])  # head
    model.compile(optimizer="adam", loss="mse")
'''


def test_a_wrap_and_a_move_preserve_the_code():
    source, _ = snippet(ORIGINAL)
    assert preserves_code(source, WRAPPED)
    assert preserves_code(source, MOVED)


def test_a_dedent_that_drops_one_scope_header_preserves_the_code():
    source, _ = snippet(MOVED)
    dedented = MOVED.replace("with strategy.scope():\n", "").replace("\n    ", "\n")
    assert preserves_code(source, dedented)


@pytest.mark.parametrize("position", [index for index, char in enumerate(MOVED) if char not in " \n"])
def test_dropping_any_single_non_blank_character_is_rejected(position):
    source, _ = snippet(ORIGINAL)
    broken = MOVED[:position] + MOVED[position + 1 :]
    assert not preserves_code(source, broken)


def test_corrupting_a_string_or_a_comment_is_rejected():
    source, _ = snippet(ORIGINAL)
    assert not preserves_code(source, MOVED.replace('"mse"', '"mae"'))
    assert not preserves_code(source, MOVED.replace("# head", "# heap"))


def test_a_duplicated_or_lost_statement_is_rejected():
    source, _ = snippet(ORIGINAL)
    assert not preserves_code(source, MOVED + "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])  # head\n")
    assert not preserves_code(source, MOVED.replace("import tensorflow as tf\n", ""))


def test_two_added_scope_headers_are_rejected():
    source, _ = snippet(ORIGINAL)
    doubled = WRAPPED.replace(
        "    model.compile(", "    with strategy.scope():\n        model.compile("
    )
    assert not preserves_code(source, doubled)


def test_a_text_that_does_not_parse_is_rejected():
    source, _ = snippet(ORIGINAL)
    assert not preserves_code(source, MOVED.replace("    model.compile", "  model.compile"))


def test_apply_edits_applies_in_offset_order_and_rejects_overlaps():
    text = "abcdef"
    assert apply_edits(text, [Edit(4, 6, "X"), Edit(0, 1, ""), Edit(2, 2, "+")]) == "b+cdX"
    assert apply_edits(text, [Edit(2, 4, ""), Edit(2, 2, "<")]) == "ab<ef"
    with pytest.raises(ValueError):
        apply_edits(text, [Edit(1, 4, ""), Edit(3, 5, "y")])
    with pytest.raises(ValueError):
        apply_edits(text, [Edit(5, 9, "")])
