"""``# noqa`` suppressions, the file-level ``# tfscope: noqa``, and "Ignore TFSxxx on this line"."""

from __future__ import annotations

from test_fixes_support import snippet

from tfscope.diagnostics import Applicability
from tfscope.source import Source
from tfscope.fixes import ALL, apply_edits, file_is_exempt, is_suppressed, noqa_fix, noqa_suppressions


def fixed(text, code, line, newline="\n"):
    source, _ = snippet(text, newline=newline)
    fix = noqa_fix(source, code=code, line=line)
    assert fix is not None
    assert fix.title == f"Ignore {code} on this line"
    assert fix.applicability is Applicability.DISPLAY_ONLY
    return apply_edits(source.text, fix.edits)


def test_suppressions_read_blanket_and_listed_codes_in_any_spelling():
    source, _ = snippet(
        """
        model = build_model()  # noqa
        optimizer = Adam()  # noqa: TFS002
        metric = AUC()  #NOQA:tfs003,  TFS001 reason: exported copy
        counter = tf.Variable(0)  # type: ignore  # noqa: E501 TFS004
        note = "# noqa: TFS005"
        plain = 1  # noqa-ish is not a directive
        """
    )
    suppressions = noqa_suppressions(source)
    assert suppressions == {
        0: ALL,
        1: frozenset({"TFS002"}),
        2: frozenset({"TFS003", "TFS001"}),
        3: frozenset({"E501", "TFS004"}),
    }
    assert is_suppressed(suppressions, 0, "TFS009")
    assert is_suppressed(suppressions, 2, "tfs001")
    assert not is_suppressed(suppressions, 1, "TFS001")
    assert not is_suppressed(suppressions, 4, "TFS005")


def test_a_noqa_after_a_multi_line_string_covers_the_lines_inside_it():
    source, _ = snippet(
        '''
        model = build_model(notes="""
        created outside on purpose
        """)  # noqa: TFS001
        '''
    )
    assert noqa_suppressions(source) == {line: frozenset({"TFS001"}) for line in (0, 1, 2)}


def test_the_fix_appends_a_directive_at_the_end_of_the_line_before_trailing_blanks():
    assert fixed("model = build_model()   \nnext_line = 1\n", "TFS001", 0) == (
        "model = build_model()  # noqa: TFS001\nnext_line = 1\n"
    )


def test_the_fix_keeps_an_existing_comment_and_crlf():
    assert fixed("model = build_model()  # the héad 🚀\nx = 1\n", "TFS001", 0, newline="\r\n") == (
        "model = build_model()  # the héad 🚀  # noqa: TFS001\r\nx = 1\r\n"
    )


def test_the_fix_merges_into_an_existing_directive():
    assert fixed("opt = Adam()  # noqa: E501\n", "TFS002", 0) == "opt = Adam()  # noqa: E501, TFS002\n"
    assert fixed("opt = Adam()  # noqa:E501 because long\n", "TFS002", 0) == (
        "opt = Adam()  # noqa:E501, TFS002 because long\n"
    )


def test_no_fix_when_the_line_already_suppresses_the_code():
    source, _ = snippet("model = build_model()  # noqa\nopt = Adam()  # noqa: TFS002\n")
    assert noqa_fix(source, "TFS001", 0) is None
    assert noqa_fix(source, "tfs002", 1) is None


def test_a_line_inside_a_bracket_takes_the_directive_on_its_own_line():
    assert fixed("model.compile(\n    optimizer=Adam(),\n    loss='mse',\n)\n", "TFS007", 1) == (
        "model.compile(\n    optimizer=Adam(),  # noqa: TFS007\n    loss='mse',\n)\n"
    )


def test_a_line_ending_inside_a_string_puts_the_directive_on_the_statements_first_line():
    text = 'model = build_model(\n    name="""head\n    """,\n)\n'
    result = fixed(text, "TFS001", 1)
    assert result == 'model = build_model(  # noqa: TFS001\n    name="""head\n    """,\n)\n'
    source, _ = snippet(result)
    assert is_suppressed(noqa_suppressions(source), 1, "TFS001")


def test_a_backslash_continued_line_uses_the_statements_first_line_when_it_can():
    text = "model = \\\n    build_model()\n"
    assert fixed(text, "TFS001", 0) == "model = \\\n    build_model()  # noqa: TFS001\n"
    source, _ = snippet("model = \\\n    build_model()  # noqa: TFS001\n")
    assert is_suppressed(noqa_suppressions(source), 0, "TFS001")


def test_the_file_level_exemption_is_a_comment_line_of_its_own():
    assert file_is_exempt(snippet("import tensorflow as tf\n# tfscope: noqa\nmodel = build()\n")[0])
    assert file_is_exempt(snippet("#TFSCOPE:NOQA  generated file\n")[0])
    assert not file_is_exempt(snippet("model = build()  # tfscope: noqa\n")[0])
    assert not file_is_exempt(snippet('doc = """\n# tfscope: noqa\n"""\n')[0])
    assert not file_is_exempt(snippet("# tfscope: noqa: TFS001\n")[0])
    assert not file_is_exempt(snippet("import tensorflow as tf\n")[0])


def test_directives_above_a_syntax_error_still_count():
    source = Source("opt = Adam()  # noqa: TFS002\nmodel = build_model(\n")
    assert noqa_suppressions(source) == {0: frozenset({"TFS002"})}
    # tokenize stops at the bad dedent: the lines below it are scanned without it
    bad_dedent = Source('if ready:\n        opt = Adam()\n    x = "a # b"  # noqa\nmodel = M()  # noqa: TFS001\n')
    assert noqa_suppressions(bad_dedent) == {2: ALL, 3: frozenset({"TFS001"})}


def test_unused_noqa_codes_are_reported_when_selected():
    """TFS100 (off by default, as ruff's RUF100): a `# noqa: TFSxxx` that suppresses nothing,
    also on a statement over several lines; blanket noqa and other tools' codes are left alone."""
    from tfscope import engine
    from tfscope.config import Settings
    from tfscope.source import Source

    text = (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # noqa: TFS001, TFS002\n"
        "with strategy.scope():\n"
        "    other = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # noqa: TFS001, E501\n"
        "    model.compile(optimizer='adam', loss='mse')  # noqa\n"
        "    opt = tf.keras.optimizers.Adam(  # noqa: TFS002\n"
        "        1e-3)\n"
    )
    assert engine.analyze(Source(text)).diagnostics == []
    analysis = engine.analyze(Source(text), Settings(extend_select=("TFS100",)))
    found = [(d.code, analysis.source.position(d.start)[0] + 1, d.message) for d in analysis.diagnostics]
    assert found == [
        ("TFS100", 3, "Unused `noqa` directive (unused: `TFS002`)"),
        ("TFS100", 5, "Unused `noqa` directive (unused: `TFS001`)"),
        ("TFS100", 7, "Unused `noqa` directive (unused: `TFS002`)"),
    ]
    assert text[analysis.diagnostics[0].start:analysis.diagnostics[0].end] == "# noqa: TFS001, TFS002"
