"""MoveOutOfScope: "Move out of the scope" before the block, else after it, else a dedent."""

from __future__ import annotations

from test_fixes_support import applied, dedent, snippet, statement

from tfscope.diagnostics import Applicability, MoveOutOfScope
from tfscope.fixes import MOVE_OUT_TITLE, candidate_fixes


def move_out(source, tree, statement_prefix):
    intent = MoveOutOfScope(statement(source, tree, statement_prefix), statement(source, tree, "with "))
    return candidate_fixes(intent, source, tree)


def test_data_loading_moves_before_the_block_above_its_comments():
    source, tree = snippet(
        """
        strategy = tf.distribute.MirroredStrategy()
        # Everything that owns variables.
        with strategy.scope():
            # Training data.
            dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(
                64
            )
            model = build_model()
        model.fit(dataset)
        """
    )
    candidates = move_out(source, tree, "dataset =")
    assert [fix.title for fix in candidates] == [MOVE_OUT_TITLE]
    assert candidates[0].applicability is Applicability.UNSAFE
    assert applied(source, candidates[0]) == dedent(
        """
        strategy = tf.distribute.MirroredStrategy()
        # Training data.
        dataset = tf.data.Dataset.from_tensor_slices((features, labels)).batch(
            64
        )
        # Everything that owns variables.
        with strategy.scope():
            model = build_model()
        model.fit(dataset)
        """
    )


def test_a_statement_reading_what_the_block_built_moves_after_it():
    source, tree = snippet(
        """
        with strategy.scope():
            model = build_model()
            config = model.get_config()
            optimizer = tf.keras.optimizers.Adam()
        print(config)
        """
    )
    assert applied(source, move_out(source, tree, "config =")[0]) == dedent(
        """
        with strategy.scope():
            model = build_model()
            optimizer = tf.keras.optimizers.Adam()
        config = model.get_config()
        print(config)
        """
    )


def test_no_fix_when_the_statement_is_tied_to_both_sides():
    source, tree = snippet(
        """
        with strategy.scope():
            model = build_model()
            inputs = model.inputs
            probe = tf.keras.Model(inputs, model.outputs)
        """
    )
    assert move_out(source, tree, "inputs =") == []


def test_the_with_as_target_counts_as_bound_earlier():
    source, tree = snippet(
        """
        with strategy.scope() as scope_context:
            name = str(scope_context)
            model = build_model()
        """
    )
    assert applied(source, move_out(source, tree, "name =")[0]) == dedent(
        """
        with strategy.scope() as scope_context:
            model = build_model()
        name = str(scope_context)
        """
    )


def test_a_block_left_empty_is_dedented_instead():
    source, tree = snippet(
        """
        def load(strategy):
            with strategy.scope():
                # Parse the records.
                dataset = tf.data.TFRecordDataset(files).map(
                    parse
                )
            return dataset
        """
    )
    assert applied(source, move_out(source, tree, "dataset =")[0]) == dedent(
        """
        def load(strategy):
            # Parse the records.
            dataset = tf.data.TFRecordDataset(files).map(
                parse
            )
            return dataset
        """
    )


def test_no_dedent_when_the_header_holds_more_than_the_scope():
    for header in (
        "with strategy.scope() as context:",
        "with strategy.scope():  # keep this note",
        "with strategy.scope(), open(path) as handle:",
        "with get_strategy().scope():",
    ):
        source, tree = snippet(f"{header}\n    dataset = load_dataset()\n")
        assert move_out(source, tree, "dataset =") == [], header


def test_moving_before_does_not_reorder_against_a_seed_set_earlier_in_the_block():
    source, tree = snippet(
        """
        import tensorflow as tf
        with strategy.scope():
            tf.random.set_seed(0)
            dataset = tf.data.Dataset.range(100).shuffle(100)
            model = build_model()
        """
    )
    assert applied(source, move_out(source, tree, "dataset =")[0]) == dedent(
        """
        import tensorflow as tf
        with strategy.scope():
            tf.random.set_seed(0)
            model = build_model()
        dataset = tf.data.Dataset.range(100).shuffle(100)
        """
    )
