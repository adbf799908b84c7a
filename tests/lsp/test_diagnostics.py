"""Diagnostics end to end: push and pull, versions, positions, robustness, close."""

from __future__ import annotations

import asyncio
import re

import pytest
from lsprotocol import types

from .session import (
    EDITORS,
    MODEL_INSIDE_SCOPE,
    MODEL_LINE,
    MODEL_OUTSIDE_SCOPE,
    codes,
    lsp_session,

    range_text,
    vscode,
)


def assert_flags_model(diagnostic: types.Diagnostic, text: str, encoding: str) -> None:
    assert diagnostic.code == "TFS001"
    assert diagnostic.source == "tfscope"
    flagged = range_text(text, diagnostic.range, encoding)
    assert re.match(r"(model\b|tf\.keras\.Sequential)", flagged), flagged
    assert "Sequential" in flagged


@pytest.mark.parametrize("editor", ["neovim", "neovim-0.7"])
async def test_push_diagnostics_without_pull_and_refresh_support(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        assert not session.pulls
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        diagnostics = await session.wait_for_diagnostics(uri, version=1)
        (diagnostic,) = [d for d in diagnostics if d.code == "TFS001"]
        assert_flags_model(diagnostic, MODEL_OUTSIDE_SCOPE, session.encoding)
        assert diagnostic.range.start.line == MODEL_LINE
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
        assert diagnostic.related_information, "the strategy/scope/compile call should be related"
        assert all(info.location.uri == uri for info in diagnostic.related_information)
        assert {"result", "index"} <= set(diagnostic.data)


async def test_pull_diagnostics_when_supported_and_never_pushed(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        assert session.pulls
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        (diagnostic,) = await session.pull(uri)
        assert_flags_model(diagnostic, MODEL_OUTSIDE_SCOPE, session.encoding)
        assert diagnostic.related_information

        session.change(uri, MODEL_INSIDE_SCOPE)
        assert await session.pull(uri) == []
        await asyncio.sleep(0.3)  # give a wrongly pushing server time to show itself
        assert session.pushed(uri) == []


async def test_pull_answers_unchanged_for_the_same_result(tmp_path):
    async with lsp_session(vscode(pull=True), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        first = await session.client.text_document_diagnostic_async(params)
        params.previous_result_id = first.result_id
        second = await session.client.text_document_diagnostic_async(params)
        assert second.kind == "unchanged" and second.result_id == first.result_id


async def test_code_description_links_rule_docs_when_configured(tmp_path):
    options = {"docsUrl": "https://tfscope.example/rules/{code}"}
    async with lsp_session(EDITORS["neovim"](), [tmp_path], initialization_options=options) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        (diagnostic,) = await session.diagnostics(uri)
        assert diagnostic.code_description.href == "https://tfscope.example/rules/tfs001"


@pytest.mark.parametrize("editor", ["vscode", "neovim", "neovim-0.7"])
async def test_non_ascii_before_the_flagged_statement(tmp_path, editor):
    text = MODEL_OUTSIDE_SCOPE.replace(
        "strategy = tf",
        "# Réseau 😀 entraîné\nstrategy = tf",
    ).replace("model = tf.keras", 'label = "ñ😀"; model = tf.keras')
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", text)
        (diagnostic,) = await session.diagnostics(uri)
        assert diagnostic.range.start.line == MODEL_LINE + 1
        assert_flags_model(diagnostic, text, session.encoding)


@pytest.mark.parametrize("editor", ["vscode", "neovim-0.7"])
async def test_syntax_error_while_typing_then_fixed(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        for half_typed in ("model.fit(x, y\n", "with strategy.\n", "with strategy.scope(:\n    pass\n"):
            session.change(uri, MODEL_OUTSIDE_SCOPE + half_typed)
            await session.diagnostics(uri)  # an answer for the broken text, and no crash
        session.change(uri, MODEL_OUTSIDE_SCOPE + "model.fit(x, y)\n")
        (diagnostic,) = await session.diagnostics(uri)
        assert_flags_model(diagnostic, session.texts[uri], session.encoding)


async def test_a_flood_of_edits_ends_with_the_final_text_and_drops_stale_versions(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_INSIDE_SCOPE)
        await session.wait_for_diagnostics(uri, predicate=lambda _: True, version=1)
        edits = 40
        for number in range(edits):
            session.change(uri, MODEL_OUTSIDE_SCOPE if number % 2 == 0 else MODEL_INSIDE_SCOPE + f"# {number}\n")
        final = session.change(uri, MODEL_OUTSIDE_SCOPE)
        (diagnostic,) = await session.wait_for_diagnostics(uri, version=final)
        assert_flags_model(diagnostic, MODEL_OUTSIDE_SCOPE, session.encoding)
        versions = [params.version for params in session.pushed(uri)]
        assert versions == sorted(versions), "a result for an older version arrived after a newer one"
        assert len(versions) == len(set(versions)), f"a version was analysed and published twice: {versions}"


async def test_close_clears_pushed_diagnostics(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.wait_for_diagnostics(uri)) == ["TFS001"]
        published_before_close = len(session.pushed(uri))
        session.close(uri)
        await session.wait_for_diagnostics(uri, predicate=lambda items: items == [])
        assert len(session.pushed(uri)) == published_before_close + 1


async def test_server_keeps_serving_other_documents_after_bad_input(tmp_path):
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        garbage = session.open(tmp_path / "garbage.py", "\x00\ufeff)))(((\n\tdef :\n" * 50)
        assert await session.diagnostics(garbage) == []
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
