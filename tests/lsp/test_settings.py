"""Settings end to end: initializationOptions shapes, workspace/configuration, pyproject.toml."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pygls import uris

from .session import EDITORS, MODEL_OUTSIDE_SCOPE, WAIT_SECONDS, codes, lsp_session

IGNORE_TFS001 = '[tool.tfscope]\nignore = ["TFS001"]\n'


def folder_uri(path) -> str:
    return uris.from_fs_path(str(path))


async def eventually(check, what: str):
    """Re-evaluate ``check`` (an async callable) until it returns a truthy value."""
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while asyncio.get_running_loop().time() < deadline:
        if value := await check():
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def test_initialization_options_as_one_settings_object(tmp_path):
    options = {"ignore": ["TFS001"]}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert await session.diagnostics(uri) == []


async def test_vscode_style_per_folder_settings_in_a_multi_root_workspace(tmp_path):
    quiet, strict = tmp_path / "quiet", tmp_path / "strict"
    quiet.mkdir(), strict.mkdir()
    options = {
        "settings": [
            {"workspace": folder_uri(quiet), "enable": True, "ignore": ["TFS001"], "logLevel": "info"},
            {"workspace": folder_uri(strict), "enable": True, "select": ["TFS"], "kerasVersion": "auto"},
        ],
        "globalSettings": {"severity": {"TFS001": "error"}},
    }
    async with lsp_session(EDITORS["vscode"](), [quiet, strict], initialization_options=options) as session:
        assert await session.diagnostics(session.open(quiet / "train.py", MODEL_OUTSIDE_SCOPE)) == []
        (diagnostic,) = await session.diagnostics(session.open(strict / "train.py", MODEL_OUTSIDE_SCOPE))
        assert diagnostic.severity == types.DiagnosticSeverity.Error
        assert any("settings for " + folder_uri(strict) in log.message for log in session.client.log_messages)


@pytest.mark.parametrize("editor", ["vscode", "neovim"])
async def test_workspace_configuration_and_its_changes(tmp_path, editor):
    configuration = {folder_uri(tmp_path): {"ignore": ["TFS001"]}}
    async with lsp_session(EDITORS[editor](), [tmp_path], configuration=configuration) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert await session.diagnostics(uri) == []
        refreshes = session.client.diagnostic_refresh_count
        session.client.set_configuration({"ignore": []}, section="tfscope", scope_uri=folder_uri(tmp_path))
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        if session.pulls:
            await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > refreshes), "refresh")
            assert codes(await session.diagnostics(uri)) == ["TFS001"]
        else:
            await session.wait_for_diagnostics(uri, predicate=lambda items: codes(items) == ["TFS001"])


async def test_did_change_configuration_settings_for_clients_without_configuration_requests(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        session.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"tfscope": {"ignore": ["TFS001"]}})
        )
        await session.wait_for_diagnostics(uri, predicate=lambda items: items == [])


async def test_changed_pyproject_is_picked_up_by_polling_when_the_client_cannot_watch(tmp_path):
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        (tmp_path / "pyproject.toml").write_text(IGNORE_TFS001)
        await session.wait_for_diagnostics(uri, predicate=lambda items: items == [])


async def test_changed_pyproject_is_picked_up_through_watched_files(tmp_path):
    registrations: list[types.Registration] = []

    def register(ls, params: types.RegistrationParams) -> None:
        registrations.extend(params.registrations)

    features = {types.CLIENT_REGISTER_CAPABILITY: register}
    async with lsp_session(EDITORS["vscode"](), [tmp_path], client_features=features) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        (watch,) = registrations
        assert watch.method == types.WORKSPACE_DID_CHANGE_WATCHED_FILES
        assert watch.register_options["watchers"][0]["globPattern"] == "**/{.tfscope.toml,tfscope.toml,pyproject.toml,.ignore,.gitignore}"
        pyproject = tmp_path / "pyproject.toml"
        pyproject.write_text(IGNORE_TFS001)
        session.client.workspace_did_change_watched_files(
            types.DidChangeWatchedFilesParams(
                changes=[types.FileEvent(uri=folder_uri(pyproject), type=types.FileChangeType.Created)]
            )
        )
        await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > 0), "refresh")
        assert await session.diagnostics(uri) == []


@pytest.mark.parametrize(
    ("preference", "severity"),
    [("editorFirst", types.DiagnosticSeverity.Hint), ("filesFirst", types.DiagnosticSeverity.Error)],
)
async def test_configuration_preference_between_editor_and_pyproject(tmp_path, preference, severity):
    (tmp_path / "pyproject.toml").write_text('[tool.tfscope]\nseverity = { TFS001 = "error" }\n')
    options = {"configurationPreference": preference, "severity": {"TFS001": "hint"}}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        (diagnostic,) = await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))
        assert diagnostic.severity == severity


async def test_invalid_settings_give_one_message_and_defaults(tmp_path):
    options = {"kerasVersion": "7", "logLevel": "loud", "select": ["TFS001"]}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        second = session.open(tmp_path / "other.py", MODEL_OUTSIDE_SCOPE)
        await session.diagnostics(second)
        (message,) = session.client.messages
        assert "kerasVersion" in message.message and "logLevel" in message.message


async def test_disabled_for_a_folder_reports_nothing(tmp_path):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options={"enable": False}) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert await session.diagnostics(uri) == []


async def test_excluded_files_get_no_diagnostics(tmp_path):
    (tmp_path / "generated").mkdir()
    options = {"exclude": ["generated/*"]}
    async with lsp_session(EDITORS["vscode"](), [tmp_path], initialization_options=options) as session:
        assert await session.diagnostics(session.open(tmp_path / "generated" / "train.py", MODEL_OUTSIDE_SCOPE)) == []
        assert codes(await session.diagnostics(session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE))) == ["TFS001"]


async def test_workspace_configuration_is_per_folder_in_a_multi_root_workspace(tmp_path):
    quiet, strict = tmp_path / "quiet", tmp_path / "strict"
    quiet.mkdir(), strict.mkdir()
    configuration = {folder_uri(quiet): {"ignore": ["TFS001"]}, folder_uri(strict): {"severity": {"TFS": "info"}}}
    async with lsp_session(EDITORS["vscode"](), [quiet, strict], configuration=configuration) as session:
        assert await session.diagnostics(session.open(quiet / "train.py", MODEL_OUTSIDE_SCOPE)) == []
        (diagnostic,) = await session.diagnostics(session.open(strict / "train.py", MODEL_OUTSIDE_SCOPE))
        assert diagnostic.severity == types.DiagnosticSeverity.Information


async def test_launcher_only_keys_in_the_vscode_shape_are_not_reported_as_invalid(tmp_path):
    options = {"settings": [{"workspace": folder_uri(tmp_path), "importStrategy": "useBundled", "ignore": []}]}
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        assert session.client.messages == []
