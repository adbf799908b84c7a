"""Configuration files seen by the server: tfscope.toml discovery, the `configuration` setting,
broken files reported once, invalid globs and ignore files (issues 8 and 9)."""

from __future__ import annotations

import asyncio

from lsprotocol import types

from .session import EDITORS, MODEL_OUTSIDE_SCOPE, codes, lsp_session
from .test_settings import eventually, folder_uri


async def test_a_broken_pyproject_gives_one_message_a_log_line_and_defaults(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tfscope]\nignore = ["TFS001"\n')
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path]) as session:
        assert codes(await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]
        assert codes(await session.diagnostics(session.open(tmp_path / "other.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]
        (message,) = session.client.messages
        assert message.type == types.MessageType.Warning
        assert "pyproject.toml: invalid TOML: line 3, column 1: Unclosed array" in message.message and "using the defaults" in message.message
        assert any("invalid TOML" in entry.message for entry in session.client.log_messages)
        # a hover (a later request) is still answered
        await session.client.text_document_hover_async(
            types.HoverParams(types.TextDocumentIdentifier(folder_uri(tmp_path / "train.py")), types.Position(3, 0))
        )


async def test_tfscope_toml_is_discovered_and_watched(tmp_path):
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        (tmp_path / "tfscope.toml").write_text('ignore = ["TFS001"]\n')  # appears beside the open file
        await session.wait_for_diagnostics(uri, predicate=lambda items: items == [])


async def test_the_configuration_setting_names_the_file_to_use(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.tfscope]\nignore = ["TFS002"]\n')
    (tmp_path / "ci").mkdir()
    (tmp_path / "ci" / "strict.toml").write_text('severity = { TFS001 = "error" }\n')
    options = {"configuration": "ci/strict.toml"}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        (diagnostic,) = await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))
        assert diagnostic.severity == types.DiagnosticSeverity.Error
        assert session.client.messages == []


async def test_an_invalid_exclude_glob_is_reported_and_diagnostics_go_on(tmp_path):
    options = {"exclude": ["[z-a]", "generated"]}
    (tmp_path / "generated").mkdir()
    async with lsp_session(EDITORS["vscode"](), [tmp_path], initialization_options=options) as session:
        assert codes(await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]
        assert await session.diagnostics(session.open(tmp_path / "generated" / "x.py", MODEL_OUTSIDE_SCOPE)) == []
        await eventually(lambda: asyncio.sleep(0, session.client.messages), "a message")
        (message,) = session.client.messages
        assert "invalid glob '[z-a]'" in message.message


async def test_gitignored_and_checkpoint_files_get_no_diagnostics(tmp_path):
    (tmp_path / ".gitignore").write_text("scratch/\n")
    (tmp_path / "scratch").mkdir(), (tmp_path / ".ipynb_checkpoints").mkdir()
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        for skipped in (tmp_path / "scratch" / "x.py", tmp_path / ".ipynb_checkpoints" / "x.py"):
            assert await session.diagnostics(session.open(skipped, MODEL_OUTSIDE_SCOPE)) == []
        assert codes(await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]


async def test_show_notifications_off_keeps_problems_in_the_log_only(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.tfscope\n")
    options = {"showNotifications": "off"}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        assert codes(await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]
        await eventually(
            lambda: asyncio.sleep(0, any("invalid TOML" in entry.message for entry in session.client.log_messages)), "a log line"
        )
        assert session.client.messages == []


def _watched_change(session, path) -> None:
    session.client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(changes=[types.FileEvent(uri=folder_uri(path), type=types.FileChangeType.Changed)])
    )


async def test_settings_are_read_once_and_again_only_when_a_watched_file_changes(tmp_path):
    """Nothing per edit that does not depend on the edit: an edit reads no configuration file."""
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[tool.tfscope]\n")
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:  # the client watches files
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        pyproject.write_text('[tool.tfscope]\nignore = ["TFS001"]\n')  # the client has not said so yet
        session.change(uri, MODEL_OUTSIDE_SCOPE + "# edited\n")
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        _watched_change(session, pyproject)
        await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > 0), "refresh")
        assert await session.diagnostics(uri) == []


async def test_a_gitignore_change_is_picked_up_through_watched_files(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        (tmp_path / ".gitignore").write_text("train.py\n")
        _watched_change(session, tmp_path / ".gitignore")
        await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > 0), "refresh")
        assert await session.diagnostics(uri) == []
