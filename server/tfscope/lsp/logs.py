"""Logging to the client (window/logMessage) and optionally to a file (--log-file)."""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types

_MESSAGE_TYPES = {
    logging.ERROR: types.MessageType.Error,
    logging.WARNING: types.MessageType.Warning,
    logging.INFO: types.MessageType.Info,
    logging.DEBUG: types.MessageType.Log,
}


class ClientLogHandler(logging.Handler):
    """Sends records as window/logMessage from the event loop, whichever thread logged them."""

    def __init__(self, server) -> None:
        super().__init__()
        self.server = server
        self.loop: asyncio.AbstractEventLoop | None = None  # known once the client connects

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop

    def emit(self, record: logging.LogRecord) -> None:
        if self.loop is None or self.loop.is_closed():
            return
        message_type = _MESSAGE_TYPES.get(record.levelno - record.levelno % 10, types.MessageType.Error)
        params = types.LogMessageParams(type=message_type, message=self.format(record))
        self.loop.call_soon_threadsafe(self.server.window_log_message, params)


def configure_logging(server, log_file: str | None) -> ClientLogHandler:
    tfscope_logger = logging.getLogger("tfscope")
    tfscope_logger.setLevel(logging.INFO)
    tfscope_logger.propagate = False  # stdout is the protocol channel; never print records there
    client_handler = ClientLogHandler(server)
    client_handler.setFormatter(logging.Formatter("%(message)s"))
    tfscope_logger.addHandler(client_handler)
    if log_file:
        file_handler = logging.FileHandler(log_file, encoding="utf-8")
        file_handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        tfscope_logger.addHandler(file_handler)
        logging.getLogger("pygls").addHandler(file_handler)
    return client_handler
