"""The editor as the server sees it: what it can do (its capabilities) and what is sent to it.

Light on purpose (lsprotocol and pygls only): it exists before ``initialize`` is answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from typing import Any

from lsprotocol import types
from pygls.lsp.server import LanguageServer

logger = logging.getLogger("tfscope.lsp")

WARNING_LEVELS = ("onWarning", "always")  # showNotifications values that pop warnings up


def capability(capabilities: Any, path: str) -> Any:
    """``capabilities.a.b.c`` for ``path`` "a.b.c", None where a part is missing."""
    for name in path.split("."):
        capabilities = getattr(capabilities, name, None)
        if capabilities is None:
            return None
    return capabilities


def pulls_diagnostics(capabilities: types.ClientCapabilities) -> bool:
    """Pull only if the client can also be told to re-pull (settings and pyproject.toml change
    without an edit); otherwise push, and then do not advertise pull at all: never both."""
    return capability(capabilities, "text_document.diagnostic") is not None and bool(
        capability(capabilities, "workspace.diagnostics.refresh_support")
    )


class Client:
    def __init__(self, server: LanguageServer) -> None:
        self._server = server
        self._shown: set[str] = set()
        self._tasks: set[asyncio.Task] = set()
        self._progress_tokens = itertools.count(1)

    # -- what it can do ------------------------------------------------------------------------

    @property
    def workspace(self):
        return self._server.workspace

    def supports(self, path: str) -> bool:
        return bool(capability(self._server.client_capabilities, path))

    @property
    def pulls_diagnostics(self) -> bool:
        return pulls_diagnostics(self._server.client_capabilities)

    @property
    def resolves_code_actions(self) -> bool:
        properties = capability(self._server.client_capabilities, "text_document.code_action.resolve_support.properties")
        return bool(properties) and "edit" in properties and self.supports("text_document.code_action.data_support")

    @property
    def reads_markdown_hovers(self) -> bool:
        formats = capability(self._server.client_capabilities, "text_document.hover.content_format") or ()
        return types.MarkupKind.Markdown in formats

    @property
    def position_encoding(self) -> str:
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return getattr(encoding, "value", encoding)

    # -- what is sent to it --------------------------------------------------------------------

    def publish(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    def refresh_diagnostics(self) -> None:
        self._server.workspace_diagnostic_refresh(None)

    def refresh_glance(self) -> None:
        """Inlay hints and code lenses changed without an edit: the client asks for them anew."""
        if self.supports("workspace.inlay_hint.refresh_support"):
            self._server.workspace_inlay_hint_refresh(None)
        if self.supports("workspace.code_lens.refresh_support"):
            self._server.workspace_code_lens_refresh(None)

    def warn_once(self, message: str, show_notifications: str = "onWarning", log: bool = True) -> None:
        """A log line (unless the caller's own logging has one) and, unless ``showNotifications``
        says otherwise, a notification; once per distinct message for the whole session."""
        if message in self._shown:
            return
        self._shown.add(message)
        if log:
            logger.warning(message)
        if show_notifications in WARNING_LEVELS:
            self._server.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))

    def report_invalid_settings(self, errors: tuple[str, ...] | list[str], show_notifications: str = "onWarning") -> None:
        """These are warnings: tfscope goes on with defaults for what was wrong."""
        if errors:
            self.warn_once("tfscope: invalid settings, defaults used for them: " + "; ".join(errors), show_notifications)

    async def configuration(self, items: list[types.ConfigurationItem]) -> list[Any]:
        return await self._server.workspace_configuration_async(types.ConfigurationParams(items=items))

    async def register(self, registration: types.Registration) -> None:
        await self._server.client_register_capability_async(types.RegistrationParams(registrations=[registration]))

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> None:
        await self._server.workspace_apply_edit_async(types.ApplyWorkspaceEditParams(edit=edit, label=label))

    @contextlib.asynccontextmanager
    async def progress(self, title: str):
        """Work-done progress around the body, when the client supports it (else nothing shown)."""
        if not self.supports("window.work_done_progress"):
            yield
            return
        token = f"tfscope-{next(self._progress_tokens)}"
        progress = self._server.work_done_progress
        try:
            await progress.create_async(token)
        except Exception:
            logger.info("the client refused a progress token; working without one")
            yield
            return
        progress.begin(token, types.WorkDoneProgressBegin(title=title, cancellable=False))
        try:
            yield
        finally:
            progress.end(token, types.WorkDoneProgressEnd())
            progress.tokens.pop(token, None)  # pygls keeps every token otherwise

    def spawn(self, coroutine) -> asyncio.Task:
        """Run in the background, holding a reference until done (the loop only keeps weak ones)."""
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def cancel_background(self) -> None:
        for task in list(self._tasks):
            task.cancel()
