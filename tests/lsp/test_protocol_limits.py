"""The protocol's promises under hostile traffic: bookkeeping stays flat, every request is
answered, bad initializationOptions never cost the user the server (issue 8)."""

from __future__ import annotations

import pytest

from .inprocess import InProcessServer
from .session import MODEL_LINE, MODEL_OUTSIDE_SCOPE

URI = "file:///project/train.py"  # never on disk: the server runs in-process


@pytest.fixture
async def server():
    running = InProcessServer()
    yield running
    running.close()


def did_change(version: int, text: str) -> dict:
    return {"textDocument": {"uri": URI, "version": version}, "contentChanges": [{"text": text}]}


async def test_notifications_leave_no_bookkeeping_behind(server):
    """pygls 2.1.1 keeps a future per notification handled by a generator (didChange, didOpen...)."""
    await server.initialize()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": MODEL_OUTSIDE_SCOPE}},
    )
    sizes = []
    version = 1
    for _ in range(3):
        for _ in range(300):
            version += 1
            server.notify("textDocument/didChange", did_change(version, MODEL_OUTSIDE_SCOPE + f"# {version}\n"))
            server.notify("$/setTrace", {"value": "off"})
        await server.settle(0.5)
        sizes.append(len(server.protocol._request_futures))
    assert sizes[0] == sizes[1] == sizes[2] <= 2, sizes


@pytest.mark.parametrize(
    "params",
    [
        {"textDocument": {"uri": URI}, "position": {"line": -1, "character": 0}},
        {"textDocument": {"uri": URI}, "position": {"line": 0, "character": -5}},
        {"textDocument": {"uri": URI}, "position": {"line": 2**40, "character": 0}},
        [URI, 0, 0],
        None,
        {"position": {"line": 0, "character": 0}},
        {"textDocument": 5, "position": "here"},
        "hover",
    ],
    ids=["negative line", "negative character", "huge line", "list", "null", "no textDocument", "wrong types", "string"],
)
async def test_a_malformed_request_gets_an_error_response(server, params):
    await server.initialize()
    response = await server.request("textDocument/hover", params)
    if "error" in response:
        assert response["error"]["code"] in (-32602, -32600)
    else:
        assert response["result"] is None  # well-formed but nowhere: nothing to say
    assert "result" in await server.request("shutdown")


@pytest.mark.parametrize("method", ["textDocument/codeAction", "textDocument/diagnostic", "codeAction/resolve"])
async def test_every_feature_answers_null_params(server, method):
    await server.initialize()
    response = await server.request(method, None)
    assert response["error"]["code"] == -32602


async def test_a_second_initialize_is_refused_and_keeps_the_documents(server):
    await server.initialize()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": MODEL_OUTSIDE_SCOPE}},
    )
    response = await server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert response["error"]["code"] == -32600
    assert URI in server.server.workspace.text_documents


async def test_requests_after_shutdown_are_refused(server):
    await server.initialize()
    assert "result" in await server.request("shutdown")
    response = await server.request("textDocument/hover", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}})
    assert response["error"]["code"] == -32600


@pytest.mark.parametrize(
    "options, complaint",
    [
        ({"settings": 5}, "settings"),
        ({"globalSettings": "x"}, "globalSettings"),
        ({"globalSettings": [1]}, "globalSettings"),
        ({"settings": [1, "x", {"workspace": 3}]}, "settings"),
        ({"settings": {"select": 5}}, "select"),
        ([1, 2], "initializationOptions"),
        ("tfscope", "initializationOptions"),
    ],
    ids=repr,
)
async def test_wrongly_typed_initialization_options_give_one_message_and_defaults(server, options, complaint):
    response = await server.initialize(options)
    assert "result" in response, response
    messages = server.shown_messages()
    assert len(messages) == 1 and complaint in messages[0], messages
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": MODEL_OUTSIDE_SCOPE}},
    )
    await server.settle(0.5)
    published = [m["params"] for m in server.sent if m.get("method") == "textDocument/publishDiagnostics"]
    assert any(d["code"] == "TFS001" for params in published for d in params["diagnostics"]), published


async def test_a_command_without_its_arguments_is_invalid_params(server):
    await server.initialize()
    response = await server.request("workspace/executeCommand", {"command": "tfscope.applyFixAll"})
    assert response["error"]["code"] == -32602


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
@pytest.mark.parametrize("odd", ["\ufeff", "x = '\udcff'\n", "# \ud800\n"], ids=["BOM", "surrogate in a string", "surrogate in a comment"])
async def test_odd_characters_from_the_editor_lose_no_findings(server, encoding, odd):
    await server.initialize(capabilities={"general": {"positionEncodings": [encoding]}})
    text = odd + MODEL_OUTSIDE_SCOPE
    server.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}})
    await server.settle(0.5)
    published = [m["params"] for m in server.sent if m.get("method") == "textDocument/publishDiagnostics"]
    assert published and [d["code"] for d in published[-1]["diagnostics"]] == ["TFS001"]
    start = published[-1]["diagnostics"][0]["range"]["start"]
    assert start == {"line": MODEL_LINE + odd.count("\n"), "character": len("model = ")}


@pytest.mark.parametrize("separator", ["\x0c", "\x0b", "\x1c", "\x85", "\u2028", "\u2029"], ids=repr)
async def test_incremental_edits_count_lines_as_lsp_does(server, separator):
    """LSP lines end only at \\r\\n, \\r and \\n; pygls' str.splitlines also split at form feeds."""
    await server.initialize()
    text = f"# page{separator}break\nmodel = 1\n"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}})
    at = {"line": 1, "character": 0}
    server.notify(
        "textDocument/didChange",
        {"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"range": {"start": at, "end": at}, "text": "big_"}]},
    )
    await server.settle(0.1)
    assert server.server.workspace.get_text_document(URI).source == f"# page{separator}break\nbig_model = 1\n"


async def test_the_rule_registry_is_filled_before_any_analysis_thread_runs(monkeypatch):
    """It fills lazily; two analysis threads filling it at once could each see half of it."""
    from tfscope import rules

    monkeypatch.setattr(rules, "_RULES", {})
    running = InProcessServer()
    try:
        await running.initialize()  # the session (and its analysis threads) starts after initialize
        assert len(rules._RULES) == len(rules._RULE_MODULES)
    finally:
        running.close()


async def test_a_file_that_cannot_be_analysed_says_so_once(server):
    await server.initialize()
    text = "import tensorflow as tf\ny = " + "-" * 100_000 + "1\n"
    server.notify("textDocument/didOpen", {"textDocument": {"uri": URI, "languageId": "python", "version": 1, "text": text}})
    for version in (2, 3):
        await server.settle(0.3)
        server.notify("textDocument/didChange", did_change(version, text + f"# {version}\n"))
    await server.settle(0.5)
    messages = [m for m in server.shown_messages() if "cannot be analysed" in m]
    assert len(messages) == 1 and "train.py" in messages[0], server.shown_messages()


async def test_an_unreadable_answer_to_a_server_request_fails_that_request_only(server):
    """A client answering workspace/configuration with a non-list left the server waiting forever."""
    server.receive({"id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": None, "capabilities": {"workspace": {"configuration": True}}}})
    await server.settle(0.1)
    server.notify("initialized", {})
    await server.settle(0.2)
    asked = next(m for m in server.sent if m.get("method") == "workspace/configuration")
    server.receive({"id": asked["id"], "result": 5})
    await server.settle(0.2)
    assert (await server.server.session()).configuration.ready.is_set()
    assert asked["id"] not in server.protocol._request_futures
