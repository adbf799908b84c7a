"""``run: onSave`` (ruff-vscode's ``lint.run``): the text as opened or last saved is analysed, not
each edit; a pull returns the results of the last saved version (issue 9)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from .session import EDITORS, MODEL_INSIDE_SCOPE, MODEL_OUTSIDE_SCOPE, codes, lsp_session
from .test_settings import eventually

ON_SAVE = {"run": "onSave"}


async def _hover(session, uri: str):
    """A request that waits for the analysis the server wants: an onType server has published the
    current version's diagnostics before it answers."""
    return await session.client.text_document_hover_async(
        types.HoverParams(types.TextDocumentIdentifier(uri), types.Position(3, 0))
    )


async def test_pushed_diagnostics_follow_saves_not_edits(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=ON_SAVE) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.wait_for_diagnostics(uri, version=1)) == ["TFS001"]
        edited = session.change(uri, MODEL_INSIDE_SCOPE)
        # unsaved: no hover either, as the analysis is of other text than the editor's
        assert await _hover(session, uri) is None
        assert [params.version for params in session.pushed(uri)] == [1]
        session.save(uri)
        assert await session.wait_for_diagnostics(uri, predicate=lambda _: True, version=edited) == []


async def test_a_pull_returns_the_results_of_the_last_saved_version(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path], initialization_options=ON_SAVE) as session:
        assert session.pulls
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.pull(uri)) == ["TFS001"]
        session.change(uri, MODEL_INSIDE_SCOPE)
        assert codes(await session.pull(uri)) == ["TFS001"]
        refreshes = session.client.diagnostic_refresh_count
        session.save(uri)
        # a save changes no text, so the server asks the client to pull again
        await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > refreshes), "refresh")
        assert await session.pull(uri) == []


async def test_on_type_is_the_default_and_an_invalid_run_value_is_reported(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options={"run": "sometimes"}) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.wait_for_diagnostics(uri, version=1)) == ["TFS001"]
        edited = session.change(uri, MODEL_INSIDE_SCOPE)
        assert await session.wait_for_diagnostics(uri, predicate=lambda _: True, version=edited) == []
        (message,) = session.client.messages
        assert "run must be one of onType, onSave" in message.message
