"""The real server over stdio under malformed, out-of-range and wrongly typed requests,
notifications, initializationOptions and settings (seeded): every request is answered, after
each message a good request still is, and the server shuts down cleanly (issue 8)."""

from __future__ import annotations

import asyncio
import copy
import itertools
import os
import random
from concurrent.futures import Future
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from .session import EDITORS, MODEL_LINE, MODEL_OUTSIDE_SCOPE, WAIT_SECONDS, codes, lsp_session

INTERNAL_ERROR = -32603
ODD_VALUES = [None, -1, -(2**31), 2**40, 1.5, True, "x", "\udcff", [], [1], {}, {"a": 1}]
_ids = itertools.count(1)


async def raw_request(client, method: str, params: Any) -> dict:
    """Send exactly ``params``; {"result": ...} or {"error": code}. Fails if no answer comes."""
    message_id = f"fuzz-{next(_ids)}"
    future: Future = Future()
    client.protocol._request_futures[message_id] = future
    client.protocol._send_data({"jsonrpc": "2.0", "id": message_id, "method": method, "params": params})
    try:
        return {"result": await asyncio.wait_for(asyncio.wrap_future(future), WAIT_SECONDS)}
    except JsonRpcException as error:
        return {"error": error.code, "message": error.message}
    except asyncio.TimeoutError:
        raise AssertionError(f"no answer to {method} {params!r}") from None


def raw_notify(client, method: str, params: Any) -> None:
    client.protocol._send_data({"jsonrpc": "2.0", "method": method, "params": params})


def good_requests(uri: str) -> dict[str, dict]:
    position = {"line": MODEL_LINE, "character": 10}
    return {
        "textDocument/hover": {"textDocument": {"uri": uri}, "position": position},
        "textDocument/codeAction": {
            "textDocument": {"uri": uri},
            "range": {"start": position, "end": position},
            "context": {"diagnostics": []},
        },
        "codeAction/resolve": {"title": "Move into `with strategy.scope():`", "data": {"uri": uri, "result": "0.1", "index": 0}},
        "textDocument/diagnostic": {"textDocument": {"uri": uri}},
        "workspace/executeCommand": {"command": "tfscope.applyFixAll", "arguments": [uri]},
    }


def good_notifications(uri: str) -> dict[str, dict]:
    return {
        "textDocument/didChange": {
            "textDocument": {"uri": uri, "version": 1000},
            "contentChanges": [{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "#"}],
        },
        "textDocument/didSave": {"textDocument": {"uri": uri}},
        "textDocument/didOpen": {"textDocument": {"uri": uri + "2", "languageId": "python", "version": 1, "text": "x = 1\n"}},
        "textDocument/didClose": {"textDocument": {"uri": uri + "2"}},
        "notebookDocument/didOpen": {
            "notebookDocument": {
                "uri": uri + ".ipynb", "notebookType": "jupyter-notebook", "version": 1,
                "cells": [{"kind": 2, "document": uri + ".ipynb#cell1"}, {"kind": 1, "document": uri + ".ipynb#cell2"}],
            },
            "cellTextDocuments": [
                {"uri": uri + ".ipynb#cell1", "languageId": "python", "version": 1, "text": "%%time\nx = (\n"},
                {"uri": uri + ".ipynb#cell2", "languageId": "markdown", "version": 1, "text": "# notes"},
            ],
        },
        "notebookDocument/didChange": {"notebookDocument": {"uri": uri + ".ipynb", "version": 2}, "change": {}},
        "notebookDocument/didClose": {
            "notebookDocument": {"uri": uri + ".ipynb"}, "cellTextDocuments": [{"uri": uri + ".ipynb#cell1"}],
        },
        "workspace/didChangeConfiguration": {"settings": {"tfscope": {"select": ["TFS"]}}},
        "workspace/didChangeWatchedFiles": {"changes": [{"uri": uri, "type": 2}]},
        "$/cancelRequest": {"id": "fuzz-0"},
        "$/setTrace": {"value": "off"},
    }


def mutated(rng: random.Random, params: Any) -> Any:
    """``params`` with one part wrong: replaced whole, a key dropped, or a value of another type."""
    choice = rng.random()
    if choice < 0.2:
        return rng.choice(ODD_VALUES)
    params = copy.deepcopy(params)
    paths = list(_paths(params))
    if not paths:
        return rng.choice(ODD_VALUES)
    path = rng.choice(paths)
    parent = params
    for key in path[:-1]:
        parent = parent[key]
    if choice < 0.4 and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = rng.choice(ODD_VALUES)
    return params


def _paths(value: Any, prefix: tuple = ()):
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield prefix + (key,)
        yield from _paths(child, prefix + (key,))


async def still_serving(session, uri: str) -> None:
    hover = await session.client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=MODEL_LINE, character=10))
    )
    assert hover is None or hover.contents


# CI's seeds; a longer run: TFSCOPE_LSP_FUZZ_SEEDS=0-49 .venv/bin/python -m pytest -q tests/lsp/test_fuzz_lsp.py
SEEDS = os.environ.get("TFSCOPE_LSP_FUZZ_SEEDS", "8,2026")
SEED_LIST = [n for part in SEEDS.split(",") for n in range(int(part.partition("-")[0]), int(part.partition("-")[2] or part) + 1)]


@pytest.mark.parametrize("seed", SEED_LIST)
async def test_malformed_traffic_is_answered_and_survived(tmp_path, seed):
    rng = random.Random(seed)
    internal_errors = []
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
        requests, notifications = good_requests(uri), good_notifications(uri)
        for _ in range(60):
            method = rng.choice(list(requests))
            params = mutated(rng, requests[method])
            answer = await raw_request(session.client, method, params)
            if answer.get("error") == INTERNAL_ERROR:
                internal_errors.append((method, params, answer["message"]))
            method = rng.choice(list(notifications))
            raw_notify(session.client, method, mutated(rng, notifications[method]))
            await still_serving(session, uri)
        assert (await raw_request(session.client, "tfscope/noSuchMethod", {}))["error"] == -32601
        session.change(uri, MODEL_OUTSIDE_SCOPE)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
    assert session.client._server.returncode == 0
    assert not internal_errors, internal_errors


@pytest.mark.parametrize(
    "options",
    [5, "x", [1], {"settings": 5}, {"globalSettings": "x"}, {"globalSettings": [1]}, {"settings": [None, 1]},
     {"select": 5, "exclude": "*", "severity": [1], "logLevel": 3, "enable": "yes"}],
    ids=repr,
)
async def test_wrongly_typed_initialization_options_still_give_a_server(tmp_path, options):
    async with lsp_session(EDITORS["neovim-0.7"](), [tmp_path], initialization_options=options) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await still_serving(session, uri)
        assert "TFS001" in codes(await session.wait_for_diagnostics(uri, predicate=lambda found: "TFS001" in codes(found)))
    assert session.client._server.returncode == 0


@pytest.mark.parametrize(
    "section",
    [5, "x", [1], {"select": 5}, {"severity": {"TFS001": 7}}, {"perFileIgnores": [1]}, {"kerasVersion": 4}, {"interpreter": 5}],
    ids=repr,
)
async def test_wrongly_typed_editor_settings_still_give_diagnostics(tmp_path, section):
    async with lsp_session(EDITORS["vscode"](), [tmp_path], configuration={"": section}) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await still_serving(session, uri)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
    assert session.client._server.returncode == 0


@pytest.mark.parametrize("answer", [5, "x", None, {"tfscope": {}}], ids=repr)
async def test_a_wrong_answer_to_workspace_configuration_still_gives_diagnostics(tmp_path, answer):
    def configuration(client, params):
        return answer

    features = {types.WORKSPACE_CONFIGURATION: configuration}
    async with lsp_session(EDITORS["vscode"](), [tmp_path], client_features=features) as session:
        uri = session.open(tmp_path / "train.py", MODEL_OUTSIDE_SCOPE)
        await still_serving(session, uri)
        assert codes(await session.diagnostics(uri)) == ["TFS001"]
    assert session.client._server.returncode == 0
