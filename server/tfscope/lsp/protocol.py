"""JSON-RPC bookkeeping pygls 2.1 leaves to its users: every request answered, nothing kept
after a message is handled, one ``initialize`` per session."""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from functools import partial
from typing import Any

import attrs
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
)
from pygls.protocol import LanguageServerProtocol, lsp_method
from pygls.protocol.json_rpc import RPCRequest
from pygls.workspace import TextDocument, Workspace


logger = logging.getLogger("tfscope.lsp")


@dataclass
class UnreadableRequest:
    """A request whose params could not be read: answered with ``error`` instead of dropped."""

    id: Any
    method: str
    error: types.ResponseError
    jsonrpc: str = "2.0"


class RobustProtocol(LanguageServerProtocol):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.initialize_received = False

    def _execute_handler(self, msg_id, handler, callback, args=None, kwargs=None):
        # pygls 2.1.1 files the future of every generator, coroutine and thread handler under a
        # fresh id, and only answered requests ever leave: each notification (every keystroke's
        # didChange) and each step of a built-in handler would stay forever.
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(partial(self._forget, msg_id))

    def _forget(self, msg_id, future: Future) -> None:
        if self._request_futures.get(msg_id) is future:
            self._request_futures.pop(msg_id, None)

    def structure_message(self, data: dict[str, Any]):
        try:
            return super().structure_message(data)
        except JsonRpcException as error:
            if isinstance(data, dict) and "method" in data and "id" in data:
                reason = "; ".join(_reasons(error.__cause__)) or error.message
                message = f"invalid params for {data['method']}: {reason}"
                return UnreadableRequest(data["id"], str(data["method"]), JsonRpcInvalidParams(message).to_response_error())
            if isinstance(data, dict) and "id" in data and "method" not in data:
                # an answer to one of our requests: fail that request, or its caller waits forever
                reason = "; ".join(_reasons(error.__cause__)) or error.message
                error_response = types.ResponseError(code=error.code, message=f"unreadable response: {reason}")
                return types.ResponseErrorMessage(id=data["id"], error=error_response)
            raise

    def handle_message(self, message) -> None:
        if isinstance(message, UnreadableRequest):
            logger.warning("answering request %r with an error: %s", message.id, message.error.message)
            self._send_response(message.id, error=message.error)
            return
        if self._shutdown and isinstance(message, RPCRequest) and message.method != types.EXIT:
            error = JsonRpcInvalidRequest(f"the server is shutting down: {message.method} refused")
            self._send_response(message.id, error=error.to_response_error())
            return
        super().handle_message(message)

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        if self.initialize_received:  # a second one would replace the workspace and its documents
            raise JsonRpcInvalidRequest("initialize may only be sent once per session")
        self.initialize_received = True
        result = yield from super().lsp_initialize(params)
        # pygls builds the workspace itself; before any document is opened, make it count lines
        # as LSP and Python do
        self._workspace.__class__ = LspLinesWorkspace
        return result

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(self, params: types.ExecuteCommandParams):
        if params.arguments is None:  # pygls would call the command without its arguments
            params = attrs.evolve(params, arguments=[])
        return (yield from super().lsp_workspace__execute_command(params))


class LspLinesTextDocument(TextDocument):
    """pygls splits lines with str.splitlines, so a form feed or U+2028 shifted every
    incremental edit below it; LSP lines end only at "\\r\\n", "\\r" and "\\n"."""

    @property
    def lines(self):
        from tfscope.parsing import split_lines  # not at start-up: it brings the parser's modules

        return tuple(split_lines(self.source))


class LspLinesWorkspace(Workspace):
    def _create_text_document(self, doc_uri, source=None, version=None, language_id=None) -> TextDocument:
        return LspLinesTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self._position_codec,
        )


def _reasons(error: BaseException | None) -> list[str]:
    """The innermost messages of a cattrs validation error (an exception group)."""
    if error is None:
        return []
    inner = getattr(error, "exceptions", None)
    if not inner:
        return [str(error)]
    return [reason for exception in inner for reason in _reasons(exception)][:3]
