"""The tfscope language server: pygls wiring and nothing else.

Each handler hands its params, with the ``Session``, to one feature module (``lsp/features``).
Start-up costs only what pygls and lsprotocol cost: the session's modules (the engine, its rules,
settings) are imported in a thread once ``initialize`` is answered, and handlers await it.
"""

from __future__ import annotations

import asyncio
import gc
import importlib
import logging
import os
import stat
import sys
import threading
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.io_ import StdoutWriter, run_async
from pygls.lsp.server import LanguageServer
from pygls.protocol import lsp_method

from tfscope import __version__
from tfscope.lsp.client import Client, pulls_diagnostics
from tfscope.lsp.logs import ClientLogHandler, configure_logging
from tfscope.lsp.names import APPLY_FIX_ALL_COMMAND, CODE_ACTION_KINDS, DIAGNOSTIC_IDENTIFIER
from tfscope.lsp.options import checked_initialization_options
from tfscope.lsp.protocol import RobustProtocol

if TYPE_CHECKING:
    from tfscope.lsp.session import Session

logger = logging.getLogger("tfscope.lsp")

# imported after `initialize`, off the request path (the session module brings the engine)
SESSION_MODULES = tuple(
    f"tfscope.lsp.{name}"
    for name in ("session", "features.diagnostics", "features.actions", "features.hover", "features.commands",
                 "features.workspace", "features.inlay_hints", "features.code_lens")
)

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook=notebook_type, cells=[types.NotebookCellLanguage(language="python")]
        )
        for notebook_type in ("jupyter-notebook", "interactive")
    ],
    save=True,
)


class TfscopeProtocol(RobustProtocol):
    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams):
        result = yield from super().lsp_initialize(params)
        if not pulls_diagnostics(params.capabilities):
            result.capabilities.diagnostic_provider = None
        return result


class TfscopeServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "tfscope",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=TfscopeProtocol,
        )
        self.client = Client(self)
        self.log_handler: ClientLogHandler | None = None
        self._session: asyncio.Future[Session] | None = None

    def open_session(self, initialization_options: Any) -> None:
        """Import the session's modules in a thread (the event loop keeps answering), then start it."""

        def import_session_modules():
            # each collection would rescan the objects pygls and lsprotocol made, some 25 % of the import
            collecting = gc.isenabled()
            gc.disable()
            try:
                for name in SESSION_MODULES:
                    importlib.import_module(name)
                from tfscope.rules import all_rules

                all_rules()  # the rule registry fills lazily; here, before analysis threads race to fill it
            finally:
                # what start-up made lives as long as the server: no later collection rescans it
                gc.freeze()
                if collecting:
                    gc.enable()

        async def started() -> Session:
            await asyncio.to_thread(import_session_modules)
            from tfscope.lsp.features import diagnostics, inlay_hints
            from tfscope.lsp.session import Session

            session = Session(self.client, initialization_options)
            diagnostics.attach(session)
            inlay_hints.attach(session)
            return session

        self._session = asyncio.ensure_future(started())

    async def session(self) -> Session:
        if self._session is None:
            raise RuntimeError("no session before initialize")
        return await asyncio.shield(self._session)

    def close_session(self) -> None:
        """Stop background work and worker threads (in-process drivers and tests)."""
        if self._session is not None and self._session.done() and not self._session.cancelled():
            self._session.result().shutdown()


def build_server() -> TfscopeServer:
    server = TfscopeServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TfscopeServer, params: types.InitializeParams) -> None:
        ls.log_handler.attach(asyncio.get_running_loop())
        options, option_errors = checked_initialization_options(params.initialization_options)
        ls.client.report_invalid_settings(option_errors)
        ls.open_session(options)
        mode = "pull" if ls.client.pulls_diagnostics else "push"
        logger.info("tfscope %s starting: %s diagnostics, %s positions", ls.version, mode, ls.client.position_encoding)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: TfscopeServer, params: types.InitializedParams) -> None:
        from tfscope.lsp.features import workspace

        await workspace.initialized(await ls.session())

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    async def did_open(ls: TfscopeServer, params: types.DidOpenTextDocumentParams) -> None:
        (await ls.session()).opened(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(ls: TfscopeServer, params: types.DidChangeTextDocumentParams) -> None:
        session = await ls.session()
        session.edited(session.target_of(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    async def did_save(ls: TfscopeServer, params: types.DidSaveTextDocumentParams) -> None:
        session = await ls.session()
        session.was_saved(session.target_of(params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: TfscopeServer, params: types.DidCloseTextDocumentParams) -> None:
        (await ls.session()).closed(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    async def notebook_did_open(ls: TfscopeServer, params: types.DidOpenNotebookDocumentParams) -> None:
        (await ls.session()).opened(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    async def notebook_did_change(ls: TfscopeServer, params: types.DidChangeNotebookDocumentParams) -> None:
        (await ls.session()).edited(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    async def notebook_did_save(ls: TfscopeServer, params: types.DidSaveNotebookDocumentParams) -> None:
        (await ls.session()).was_saved(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    async def notebook_did_close(ls: TfscopeServer, params: types.DidCloseNotebookDocumentParams) -> None:
        cell_uris = [cell.uri for cell in params.cell_text_documents]
        (await ls.session()).closed(params.notebook_document.uri, cell_uris)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=DIAGNOSTIC_IDENTIFIER, inter_file_dependencies=False, workspace_diagnostics=False
        ),
    )
    async def pull_diagnostics(ls: TfscopeServer, params: types.DocumentDiagnosticParams):
        from tfscope.lsp.features import diagnostics

        return await diagnostics.pull(await ls.session(), params)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(CODE_ACTION_KINDS), resolve_provider=True),
    )
    async def code_action(ls: TfscopeServer, params: types.CodeActionParams):
        from tfscope.lsp.features import actions

        return await actions.code_actions(await ls.session(), params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: TfscopeServer, action: types.CodeAction) -> types.CodeAction:
        from tfscope.lsp.features import actions

        return await actions.resolve(await ls.session(), action)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: TfscopeServer, params: types.HoverParams):
        from tfscope.lsp.features import hover

        return await hover.hover(await ls.session(), params)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def on_inlay_hint(ls: TfscopeServer, params: types.InlayHintParams):
        from tfscope.lsp.features import inlay_hints

        return await inlay_hints.inlay_hints(await ls.session(), params)

    @server.feature(types.INLAY_HINT_RESOLVE)
    async def on_inlay_hint_resolve(ls: TfscopeServer, hint: types.InlayHint) -> types.InlayHint:
        from tfscope.lsp.features import inlay_hints

        return inlay_hints.resolve(await ls.session(), hint)

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def on_code_lens(ls: TfscopeServer, params: types.CodeLensParams):
        from tfscope.lsp.features import code_lens

        return await code_lens.code_lenses(await ls.session(), params)

    @server.command(APPLY_FIX_ALL_COMMAND)
    async def apply_fix_all(ls: TfscopeServer, uri: str) -> None:
        from tfscope.lsp.features import commands

        await commands.apply_fix_all(await ls.session(), uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: TfscopeServer, params: types.DidChangeConfigurationParams) -> None:
        from tfscope.lsp.features import workspace

        await workspace.configuration_changed(await ls.session(), params.settings)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_folders(ls: TfscopeServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        from tfscope.lsp.features import workspace

        await workspace.folders_changed(await ls.session())

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(ls: TfscopeServer, params: types.DidChangeWatchedFilesParams) -> None:
        from tfscope.lsp.features import workspace

        workspace.files_changed(await ls.session(), [change.uri for change in params.changes])

    return server


def start_server(tcp: str | None = None, log_file: str | None = None) -> None:
    """Serve over stdio, or over TCP when ``tcp`` is "HOST:PORT" (or just "PORT")."""
    server = build_server()
    server.log_handler = configure_logging(server, log_file)
    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    elif _stdin_is_a_pipe():
        _serve_stdin_pipe(server)
    else:
        server.start_io()


def _stdin_is_a_pipe() -> bool:
    """How editors start a server; asyncio reads pipes without a thread except on Windows."""
    if sys.platform == "win32":
        return False
    try:
        stdin, stdout = os.fstat(sys.stdin.fileno()), os.fstat(sys.stdout.fileno())
    except (AttributeError, OSError, ValueError):  # no stdin, or a replaced one without a descriptor
        return False
    # one socket for both ends: the loop would make it non-blocking under the synchronous writer too
    shared = (stdin.st_dev, stdin.st_ino) == (stdout.st_dev, stdout.st_ino)
    return (stat.S_ISFIFO(stdin.st_mode) or stat.S_ISSOCK(stdin.st_mode)) and not shared


def _serve_stdin_pipe(server: TfscopeServer) -> None:
    """``start_io`` with stdin read by the event loop: pygls reads it in a worker thread, three
    hand-offs to the loop per message (each waking it through its self-pipe), on every keystroke."""
    server.protocol.set_writer(StdoutWriter(sys.stdout.buffer))

    async def serve() -> None:
        stream = asyncio.StreamReader()
        await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(stream), sys.stdin.buffer)
        await run_async(threading.Event(), _PipeReader(stream), server.protocol, logger, server.report_server_error)

    try:
        asyncio.run(serve())
    except BrokenPipeError:
        logger.error("the client closed the connection: shutting down")
    except (KeyboardInterrupt, SystemExit):  # `exit` ends the process as pygls' own loop does
        pass
    finally:
        server.shutdown()


class _PipeReader:
    """The reader ``run_async`` expects: at the end of input, what ``read`` of a file gives."""

    def __init__(self, stream: asyncio.StreamReader) -> None:
        self._stream = stream

    async def readline(self) -> bytes:
        await asyncio.sleep(0)  # what the last message scheduled runs first, as after pygls' thread hand-off
        return await self._stream.readline()

    async def readexactly(self, count: int) -> bytes:
        try:
            return await self._stream.readexactly(count)
        except asyncio.IncompleteReadError as error:
            return error.partial
