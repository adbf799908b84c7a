"""Hover end to end: a flagged range, a code inside ``# noqa: ...``, a variable's placement."""

from __future__ import annotations

import pytest
from lsprotocol import types

from .session import EDITORS, MODEL_LINE, MODEL_OUTSIDE_SCOPE, lsp_session, range_text


async def hover(session, uri: str, line: int, character: int) -> types.Hover | None:
    return await session.client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            position=types.Position(line=line, character=character),
        )
    )


@pytest.mark.parametrize("editor", ["vscode", "neovim-0.7"])
async def test_hover_on_a_flagged_range_shows_reasoning_and_rule_docs(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        (diagnostic,) = await session.diagnostics(uri)
        column = MODEL_OUTSIDE_SCOPE.splitlines()[MODEL_LINE].index("Sequential")
        shown = await hover(session, uri, MODEL_LINE, column)
        assert shown.contents.kind == types.MarkupKind.Markdown
        text = shown.contents.value
        assert "TFS001" in text
        assert diagnostic.message in text
        assert "created where no `strategy.scope()` is active" in text  # this occurrence's reasoning
        assert "## What it does" in text  # the rule's documentation
        assert shown.range == diagnostic.range


async def test_hover_on_a_noqa_code_shows_that_rules_docs(tmp_path):
    text = MODEL_OUTSIDE_SCOPE.replace("Dense(10)])\n", "Dense(10)])  # noqa: TFS002, TFS001\n")
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", text)
        assert await session.diagnostics(uri) == []
        line = text.splitlines()[MODEL_LINE]
        shown = await hover(session, uri, MODEL_LINE, line.index("TFS001") + 2)
        assert range_text(text, shown.range, session.encoding) == "TFS001"
        assert "model-outside-scope" in shown.contents.value
        assert "## What it does" in shown.contents.value
        other = await hover(session, uri, MODEL_LINE, line.index("TFS002"))
        assert "optimizer-outside-scope" in other.contents.value


async def test_hover_on_a_variable_shows_its_placement(tmp_path):
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(uri)
        shown = await hover(session, uri, MODEL_LINE, 2)  # on `model` in `model = ...`
        assert "created outside any strategy scope" in shown.contents.value
        assert await hover(session, uri, 0, 1) is None  # `import`: nothing to say
