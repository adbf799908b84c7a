"""Placement at a glance through the real server over stdio: inlay hints with the strategy that
owns each named object (tooltip by inlayHint/resolve), code lenses over scope blocks (off by
default), both for the analysed version, both with a setting, nothing in notebook markdown."""

from __future__ import annotations

import asyncio
import textwrap

import pytest
from lsprotocol import types
from pygls import uris

from .session import EDITORS, WAIT_SECONDS, lsp_session

SCRIPT = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    export_copy = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
    with strategy.scope():
        optimizer = tf.keras.optimizers.Adam()
        accuracy = tf.keras.metrics.Mean()
        model.compile(optimizer=optimizer, loss="mse", metrics=[accuracy])
    """
)
WHOLE_FILE = types.Range(start=types.Position(line=0, character=0), end=types.Position(line=99, character=0))
MIRRORED = "⟨strategy: MirroredStrategy⟩"


async def hints(session, uri: str, span: types.Range = WHOLE_FILE) -> list[types.InlayHint]:
    return await session.client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=types.TextDocumentIdentifier(uri=uri), range=span)
    )


async def lenses(session, uri: str) -> list[types.CodeLens]:
    return await session.client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


def shown(text: str, found: list[types.InlayHint]) -> list[tuple[str, str]]:
    """(the line up to the hint, the hint) for each hint (ASCII lines: any encoding counts alike)."""
    lines = text.splitlines()
    return [(lines[hint.position.line][: hint.position.character], hint.label) for hint in found]


@pytest.mark.parametrize("editor", ["vscode", "neovim"])
async def test_each_named_owner_shows_its_strategy_after_its_creation(tmp_path, editor):
    async with lsp_session(EDITORS[editor](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        found = await hints(session, uri)
        lines = SCRIPT.splitlines()
        assert shown(SCRIPT, found) == [
            (lines[3], "⟨no strategy⟩"),  # created outside, compiled in the scope
            (lines[6], MIRRORED),
            (lines[7], MIRRORED),
        ]  # `export_copy` never meets a strategy: no hint
        assert all(hint.padding_left and hint.kind == types.InlayHintKind.Type for hint in found)
        resolved = await session.client.inlay_hint_resolve_async(found[0])
        assert "created outside any strategy scope" in resolved.tooltip.value
        only_the_block = types.Range(start=types.Position(line=5, character=0), end=types.Position(line=7, character=99))
        assert [hint.label for hint in await hints(session, uri, only_the_block)] == [MIRRORED, MIRRORED]


async def test_hints_follow_the_current_version(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        assert len(await hints(session, uri)) == 3
        fixed = SCRIPT.replace("model = tf.keras", "with strategy.scope():\n    model = tf.keras")
        session.change(uri, fixed)
        assert shown(fixed, await hints(session, uri))[0] == (fixed.splitlines()[4], MIRRORED)


async def test_a_stale_hint_resolves_without_a_tooltip(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        (stale, *_) = await hints(session, uri)
        session.change(uri, SCRIPT + "\n")
        await hints(session, uri)
        assert (await session.client.inlay_hint_resolve_async(stale)).tooltip is None


async def test_the_inlay_hints_setting_turns_them_off(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path], configuration={"": {"inlayHints": False}}) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        assert list(await hints(session, uri)) == []


async def test_code_lenses_are_off_by_default_and_count_the_block_when_on(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        assert list(await lenses(session, uri)) == []
    async with lsp_session(EDITORS["neovim"](), [tmp_path], configuration={"": {"codeLens": True}}) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        (lens,) = await lenses(session, uri)
        assert lens.range.start.line == 5
        assert lens.command.title == "creates 2 distributed objects · 1 created outside is used here"
        assert lens.command.command == "tfscope.showObjects"
        lens_uri, position, locations = lens.command.arguments
        assert lens_uri == uri and position == {"line": 5, "character": 0}
        assert [(location["uri"], location["range"]["start"]["line"]) for location in locations] == [
            (uri, 6), (uri, 7), (uri, 3)
        ]


async def test_notebook_hints_are_per_cell_and_never_in_markdown(tmp_path):
    cells = [
        ("code", "import tensorflow as tf\nstrategy = tf.distribute.MirroredStrategy()"),
        ("markdown", "model = tf.keras.Sequential()  # prose about the model"),
        ("code", "model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])"),
        ("code", 'with strategy.scope():\n    model.compile(optimizer="adam", loss="mse")'),
    ]
    async with lsp_session(EDITORS["vscode"](), [tmp_path], configuration={"": {"codeLens": True}}) as session:
        setup, markdown, model, scope = session.open_notebook(tmp_path / "train.ipynb", cells)
        (hint,) = await hints(session, model)
        assert hint.label == "⟨no strategy⟩" and hint.position == types.Position(line=0, character=len(cells[2][1]))
        assert list(await hints(session, markdown)) == []
        assert list(await hints(session, setup)) == []
        (lens,) = await lenses(session, scope)
        assert lens.command.title == "1 created outside is used here"
        assert [location["uri"] for location in lens.command.arguments[2]] == [model]


async def test_a_settings_change_makes_the_client_ask_for_hints_again(tmp_path):
    refreshes: list[None] = []

    def refresh(ls, params) -> None:
        refreshes.append(params)

    features = {types.WORKSPACE_INLAY_HINT_REFRESH: refresh}
    async with lsp_session(EDITORS["neovim"](), [tmp_path], client_features=features) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        assert len(await hints(session, uri)) == 3
        assert refreshes == []  # an edit is the client's own cue
        session.client.set_configuration({"inlayHints": False}, section="tfscope", scope_uri=uris.from_fs_path(str(tmp_path)))
        session.client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=None))
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while not refreshes and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
        assert refreshes, "no workspace/inlayHint/refresh after the settings changed"
        assert list(await hints(session, uri)) == []


async def test_with_run_on_save_hints_wait_for_the_save(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path], initialization_options={"run": "onSave"}) as session:
        uri = session.open(tmp_path / "train.py", SCRIPT)
        assert len(await hints(session, uri)) == 3
        edited = "# a new first line\n" + SCRIPT
        session.change(uri, edited)
        # the analysis is of the saved text: its positions would land a line off
        assert list(await hints(session, uri)) == []
        session.save(uri)
        assert shown(edited, await hints(session, uri))[0] == (edited.splitlines()[4], "⟨no strategy⟩")
