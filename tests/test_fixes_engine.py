"""Fixes end to end: engine.analyze finds the diagnostic, engine.fixes_for validates our edits,
and the fixed text analyses clean for that rule."""

from __future__ import annotations

from test_fixes_support import dedent

from tfscope import engine
from tfscope.diagnostics import Applicability
from tfscope.fixes import apply_edits, preserves_code
from tfscope.notebook import notebook_source
from tfscope.source import Source


def only(analysis, code):
    found = [diagnostic for diagnostic in analysis.diagnostics if diagnostic.code == code]
    assert len(found) == 1, [(d.code, d.message) for d in analysis.diagnostics]
    return found[0]


def fix_and_recheck(text, code):
    analysis = engine.analyze(Source(text))
    validated = engine.fixes_for(analysis, only(analysis, code))
    assert validated, f"no validated fix for {code}"
    fixed = apply_edits(text, validated[0].edits)
    assert preserves_code(analysis.source, fixed)
    assert code not in {d.code for d in engine.analyze(Source(fixed)).diagnostics}
    return validated, fixed


def test_a_model_built_before_the_scope_moves_into_it():
    text = dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        # Two dense layers.
        model = tf.keras.Sequential([
            tf.keras.Input(shape=(784,)),
            tf.keras.layers.Dense(10),
        ])
        with strategy.scope():
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        model.fit(x, y)
        """
    )
    validated, fixed = fix_and_recheck(text, "TFS001")
    assert validated[0].title == "Move into `with strategy.scope():`"
    assert validated[0].is_preferred and validated[0].applicability is Applicability.SAFE
    assert fixed == dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            # Two dense layers.
            model = tf.keras.Sequential([
                tf.keras.Input(shape=(784,)),
                tf.keras.layers.Dense(10),
            ])
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        model.fit(x, y)
        """
    )


def test_an_optimizer_used_before_the_scope_is_wrapped_not_moved():
    text = dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)
        optimizer.build([])
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer=optimizer, loss="mse")
        """
    )
    validated, fixed = fix_and_recheck(text, "TFS002")
    assert [fix.title for fix in validated] == ["Wrap in `with strategy.scope():`"]
    assert fixed.splitlines()[3:5] == [
        "with strategy.scope():",
        "    optimizer = tf.keras.optimizers.Adam(learning_rate=1e-3)",
    ]


def test_data_loading_in_the_scope_moves_out_as_an_unsafe_fix():
    text = dedent(
        """
        import tensorflow as tf
        from tensorflow import keras

        strategy = tf.distribute.MirroredStrategy()

        with strategy.scope():
            train_ds = keras.utils.image_dataset_from_directory(
                "flowers/train",
                image_size=(180, 180),
            )
            model = keras.applications.EfficientNetB0(weights=None, classes=5)
            model.compile(optimizer=keras.optimizers.Adam(), loss="sparse_categorical_crossentropy")

        model.fit(train_ds, epochs=10)
        """
    )
    validated, fixed = fix_and_recheck(text, "TFS009")
    assert validated[0].title == "Move out of the scope"
    assert validated[0].applicability is Applicability.UNSAFE
    assert engine.fix_all(engine.analyze(Source(text))) == []  # fix-all applies safe fixes only
    assert fixed.splitlines()[5:11] == [
        "train_ds = keras.utils.image_dataset_from_directory(",
        '    "flowers/train",',
        "    image_size=(180, 180),",
        ")",
        "with strategy.scope():",
        "    model = keras.applications.EfficientNetB0(weights=None, classes=5)",
    ]


def test_the_noqa_fix_silences_the_diagnostic_and_merges_with_other_codes():
    text = dedent(
        """
        import tensorflow as tf

        strategy = tf.distribute.MirroredStrategy()
        model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # noqa: E501
        with strategy.scope():
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        """
    )
    analysis = engine.analyze(Source(text))
    fix = engine.noqa_fix(analysis, only(analysis, "TFS001"))
    fixed = apply_edits(text, fix.edits)
    assert "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # noqa: E501, TFS001\n" in fixed
    assert "TFS001" not in {d.code for d in engine.analyze(Source(fixed)).diagnostics}


def test_the_file_level_exemption_silences_everything():
    text = "# tfscope: noqa\nimport tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()\n"
    text += "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
    text += "with strategy.scope():\n    model.compile(optimizer=tf.keras.optimizers.Adam(), loss='mse')\n"
    assert engine.analyze(Source(text)).diagnostics == []
    assert engine.analyze(Source(text.replace("# tfscope: noqa\n", ""))).diagnostics != []


def test_a_notebook_fix_moves_across_cells_and_keeps_the_magics():
    cells = [
        "%pip install -q tensorflow\nimport tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()",
        "model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])",
        "with strategy.scope():\n    model.compile(optimizer=tf.keras.optimizers.Adam(), loss='mse')",
    ]
    source = notebook_source([(index, text, None) for index, text in enumerate(cells)])
    analysis = engine.analyze(source)
    validated = engine.fixes_for(analysis, only(analysis, "TFS001"))
    assert validated[0].title == "Move into `with strategy.scope():`"
    for edit in validated[0].edits:
        assert any(cell.start <= edit.start and edit.end <= cell.end for cell in source.cells)
    fixed = apply_edits(source.text, validated[0].edits)
    assert fixed.startswith("%pip install -q tensorflow\n")
    assert "with strategy.scope():\n    model = tf.keras.Sequential(" in fixed


def test_every_fixable_rule_offers_a_validated_fix_on_its_corpus_positives():
    """A rule that says it is fixable must deliver: at least one finding of it in the corpus
    gets a fix that the engine validates (parses, keeps the code, removes the finding), under the
    settings the corpus file's header names (`# corpus: keras-version=2`)."""
    from test_corpus import CORPUS, CORPUS_FILES

    from tfscope.rules import all_rules

    for rule in all_rules():
        if not rule.fixable:
            continue
        folder = CORPUS / rule.code.lower()
        positives = [corpus_file for corpus_file in CORPUS_FILES
                     if corpus_file.path.parent == folder and not corpus_file.path.stem.endswith("_quiet")]
        fixed = False
        for corpus_file in positives:
            source = Source(corpus_file.text, path=str(corpus_file.path))
            analysis = engine.analyze(source, corpus_file.settings)
            if any(engine.fixes_for(analysis, d) for d in analysis.diagnostics if d.code == rule.code):
                fixed = True
                break
        assert fixed, f"{rule.code} is marked fixable but no corpus finding of it gets a fix"
