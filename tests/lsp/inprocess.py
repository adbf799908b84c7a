"""The real tfscope server driven in this process, message by message, for what stdio cannot show
deterministically (the protocol's bookkeeping after thousands of messages)."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

from tfscope.lsp.logs import ClientLogHandler
from tfscope.lsp.server import build_server

log = logging.getLogger(__name__)


class InProcessServer:
    """Feeds JSON-RPC messages the way pygls' stdio reader does; records what the server writes."""

    def __init__(self) -> None:
        self.server = build_server()
        self.server.log_handler = ClientLogHandler(self.server)
        self.protocol = self.server.protocol
        self.protocol.set_writer(self, include_headers=False)
        self.sent: list[dict[str, Any]] = []
        self.ids = iter(range(1, 10**9))

    def write(self, data: bytes) -> None:  # the server's writer
        self.sent.append(json.loads(data))

    def receive(self, message: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message})
        try:  # what pygls.io_.run_async does with each message body
            self.protocol.handle_message(json.loads(body, object_hook=self.protocol.structure_message))
        except Exception:
            log.exception("the reader dropped a message")

    def notify(self, method: str, params: Any = None) -> None:
        self.receive({"method": method, "params": params})

    async def request(self, method: str, params: Any = None, settle: float = 10.0) -> dict[str, Any]:
        """The response (result or error) to one request; AssertionError if none comes."""
        request_id = next(self.ids)
        self.receive({"id": request_id, "method": method, "params": params})
        deadline = asyncio.get_running_loop().time() + settle
        while asyncio.get_running_loop().time() < deadline:
            for message in self.sent:
                if message.get("id") == request_id and "method" not in message:
                    return message
            await asyncio.sleep(0.01)
        raise AssertionError(f"no response to {method} {params!r}")

    async def initialize(self, initialization_options: Any = None, capabilities: dict | None = None) -> dict:
        response = await self.request(
            "initialize",
            {"processId": None, "rootUri": None, "capabilities": capabilities or {}, "initializationOptions": initialization_options},
        )
        if "result" in response:
            await self.server.session()  # its modules are imported in a thread after initialize
        self.notify("initialized", {})
        await self.settle()
        return response

    async def settle(self, seconds: float = 0.2) -> None:
        await asyncio.sleep(seconds)

    def shown_messages(self) -> list[str]:
        return [m["params"]["message"] for m in self.sent if m.get("method") == "window/showMessage"]

    def close(self) -> None:
        self.server.close_session()
