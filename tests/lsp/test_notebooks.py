"""Notebooks end to end: the whole notebook analysed in cell order, every code cell republished
(pushed), or answered by pull once the client pulls a cell."""

from __future__ import annotations

import ast
import asyncio
import json

import pytest
from lsprotocol import types

from .session import EDITORS, WAIT_SECONDS, codes, lsp_session, range_text

STRATEGY_CELL = "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()"
MODEL_CELL = "model = tf.keras.Sequential([tf.keras.layers.Dense(10)])"
SCOPE_CELL = 'with strategy.scope():\n    model.compile(optimizer="adam", loss="mse")'
CELLS = [("code", STRATEGY_CELL), ("markdown", "# Build the model"), ("code", MODEL_CELL), ("code", SCOPE_CELL)]


@pytest.mark.parametrize("notebook_type", ["jupyter-notebook", "interactive"])
async def test_scope_in_one_cell_and_model_in_another(tmp_path, notebook_type):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, markdown, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS, notebook_type)
        await session.wait_for_cells({strategy: [], model: ["TFS001"], scope: []})
        assert session.pushed(markdown) == []
        (diagnostic,) = session.pushed(model)[-1].diagnostics
        assert diagnostic.range.start.line == 0  # lines count from the cell's first line
        assert range_text(MODEL_CELL, diagnostic.range, session.encoding).startswith("tf.keras.Sequential")
        related = {info.location.uri for info in diagnostic.related_information}
        assert related == {strategy, scope}
        assert session.pushed(model)[-1].version == 1  # the cell document's version


async def test_every_code_cell_is_republished_after_a_change_elsewhere(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        await session.wait_for_cells({strategy: [], model: ["TFS001"], scope: []})
        session.change(strategy, "import tensorflow as tf")  # no strategy any more...
        session.change(scope, "model.summary()")  # ...and no scope: the model cell is fine now
        await session.wait_for_cells({strategy: [], model: [], scope: []})
        session.change(strategy, STRATEGY_CELL)
        session.change(scope, SCOPE_CELL)
        await session.wait_for_cells({strategy: [], model: ["TFS001"], scope: []})


async def test_removed_cells_are_cleared(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        await session.wait_for_cells({model: ["TFS001"]})
        published = len(session.pushed(model))
        session.remove_cell(model)
        await session.wait_for_cells({strategy: [], model: [], scope: []})
        assert len(session.pushed(model)) == published + 1


async def test_quick_fix_across_cells_then_gone(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        await session.wait_for_cells({model: ["TFS001"]})
        actions = await session.code_actions(model, 0)
        (move,) = [action for action in actions if action.is_preferred]
        move = await session.resolved(move)
        touched = {change.text_document.uri for change in move.edit.document_changes}
        assert touched <= {strategy, model, scope} and model in touched
        session.apply(move.edit)
        await session.wait_for_cells({strategy: [], model: [], scope: []})
        ast.parse("\n".join(session.texts[uri] for uri in (strategy, model, scope)))


async def test_notebook_fix_all_kind(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        await session.wait_for_cells({model: ["TFS001"]})
        actions = await session.code_actions(strategy, 0, only=["notebook.source.fixAll"])
        (fix_all,) = actions
        assert fix_all.kind == "notebook.source.fixAll.tfscope"
        session.apply((await session.resolved(fix_all)).edit)
        await session.wait_for_cells({strategy: [], model: [], scope: []})


async def test_closing_a_notebook_clears_its_cells(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        path = tmp_path / "train.ipynb"
        cell_uris = session.open_notebook(path, CELLS)
        await session.wait_for_cells({cell_uris[2]: ["TFS001"]})
        session.client.notebook_document_did_close(
            types.DidCloseNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=session.notebook_of[cell_uris[0]]),
                cell_text_documents=[types.TextDocumentIdentifier(uri=uri) for uri in cell_uris],
            )
        )
        await session.wait_for_cells({cell_uris[0]: [], cell_uris[2]: [], cell_uris[3]: []})


async def eventually(condition, what: str) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.01)


async def test_a_pulled_cell_is_answered_with_its_findings_and_no_longer_pushed(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        assert session.pulls
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        await session.wait_for_cells({strategy: [], model: ["TFS001"], scope: []})  # pushed until pulled

        (diagnostic,) = await session.pull(model)
        assert diagnostic.code == "TFS001" and diagnostic.range.start.line == 0
        assert {info.location.uri for info in diagnostic.related_information} == {strategy, scope}
        # the push is cleared at the first pull: the finding is never shown twice
        assert codes(session.pushed(model)[-1].diagnostics) == []
        assert codes(await session.pull(scope)) == []

        pushes = len(session.pushed(model))
        session.change(model, "model = tf.keras.Sequential([])\n" + MODEL_CELL)
        (moved,) = await session.pull(model)
        assert moved.range.start.line == 1
        session.change(model, MODEL_CELL)
        assert codes(await session.pull(model)) == ["TFS001"]
        assert len(session.pushed(model)) == pushes  # pulled cells get no pushes
        assert session.pushed(strategy)[-1].version == 1  # a cell never pulled is still pushed


async def test_an_edit_changing_another_pulled_cell_asks_for_a_refresh(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        for cell in (strategy, model, scope):
            await session.pull(cell)
        assert codes(await session.pull(model)) == ["TFS001"]

        # an edit in the scope cell with no effect elsewhere: no refresh
        session.change(scope, SCOPE_CELL + "\n")
        assert codes(await session.pull(scope)) == []
        assert session.client.diagnostic_refresh_count == 0

        # the model rebuilt under the scope: the model cell is fine, though its own text did not change
        session.change(scope, "with strategy.scope():\n    " + MODEL_CELL + '\n    model.compile(optimizer="adam", loss="mse")')
        assert codes(await session.pull(scope)) == []
        await eventually(lambda: session.client.diagnostic_refresh_count == 1, "a diagnostic refresh")
        assert codes(await session.pull(model)) == []
        assert codes(session.pushed(model)[-1].diagnostics) == []  # nothing pushed for it instead


async def test_a_removed_cell_is_answered_empty_once_gone(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        assert codes(await session.pull(model)) == ["TFS001"]
        session.remove_cell(model)
        assert codes(await session.pull(strategy)) == []
        assert codes(await session.pull(model)) == []  # no longer in the notebook


async def test_with_run_on_save_a_save_refreshes_pulled_cells(tmp_path):
    async with lsp_session(EDITORS["vscode"](), [tmp_path], initialization_options={"run": "onSave"}) as session:
        strategy, _, model, scope = session.open_notebook(tmp_path / "train.ipynb", CELLS)
        assert codes(await session.pull(model)) == ["TFS001"]
        session.change(model, "with strategy.scope():\n    " + MODEL_CELL)
        assert codes(await session.pull(model)) == ["TFS001"]  # the saved text's findings
        session.client.notebook_document_did_save(
            types.DidSaveNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=session.notebook_of[model])
            )
        )
        # the cell was pulled after its edit: only a refresh makes the client pull it again
        await eventually(lambda: session.client.diagnostic_refresh_count == 1, "a diagnostic refresh")
        assert codes(await session.pull(model)) == []


async def test_what_the_saved_notebook_records_of_its_last_run_dates_its_keras(tmp_path):
    """The editor sends cells without outputs or kernel metadata: the saved file's are read, as
    `tfscope check` reads them. Saved by a Python 3.6 kernel it ran Keras 2, whose `compile`
    enters the model's strategy: a string optimizer there is fine."""
    cells = [("code", STRATEGY_CELL + "\nwith strategy.scope():\n    " + MODEL_CELL),
             ("code", 'model.compile(optimizer="adam", loss="mse")')]

    def saved(name: str, python_version: str):
        path = tmp_path / name
        path.write_text(json.dumps({
            "cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": text}
                      for _, text in cells],
            "metadata": {"language_info": {"name": "python", "version": python_version}},
            "nbformat": 4, "nbformat_minor": 5}))
        return path

    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        _, old_compile = session.open_notebook(saved("old.ipynb", "3.6.9"), cells)
        _, new_compile = session.open_notebook(saved("new.ipynb", "3.11.4"), cells)
        await session.wait_for_cells({old_compile: [], new_compile: ["TFS007"]})
