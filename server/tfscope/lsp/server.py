"""The tfscope language server: a thin pygls adapter around ``tfscope.engine``.

Edits are debounced on the event loop (keyed by analysis target), analysed in a few worker
threads with at most one analysis per target at a time (an edit during one reruns it when it
ends: latest wins), and a result is kept only if its document version is still current.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import os
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer
from pygls.protocol import lsp_method

from tfscope import engine
from tfscope.config import CONFIG_FILE_NAMES
from tfscope.diagnostics import Fix
from tfscope.files import is_skipped
from tfscope.lsp import actions, code_lens, hover, inlay_hints
from tfscope.lsp.convert import to_lsp_diagnostic
from tfscope.lsp.documents import Snapshot, current_version, take_snapshot, target_key
from tfscope.lsp.logs import ClientLogHandler, configure_logging
from tfscope.lsp.options import checked_initialization_options
from tfscope.lsp.protocol import RobustProtocol
from tfscope.lsp.settings import (
    Resolved,
    merged,
    normalize_uri,
    resolve,
    server_options,
    split_initialization_options,
)
from tfscope.ownership import OwnerHint, ScopeSummary
from tfscope.resolve.project import ProjectResolver
from tfscope.rules import all_rules

logger = logging.getLogger("tfscope.lsp")

# A lone edit is analysed at once; edits closer together than this are coalesced into one run
# that starts this long after the last of them (typing bursts, pastes, scripted floods).
DEBOUNCE_SECONDS = 0.05
PYPROJECT_POLL_SECONDS = 1.0  # only when the client cannot watch files for us
CONFIGURATION_WAIT_SECONDS = 5.0  # how long the first analysis waits for workspace/configuration
RESULT_RECHECK_SECONDS = 5.0  # a waiting request re-checks that an analysis is on its way
# Full analyses (syntax tree, semantic model: megabytes for a long script) kept for code actions
# and hovers; older ones keep only their diagnostics and are re-analysed when next needed.
KEPT_ANALYSES = 8
# Analyses run side by side, one per target at most, so one slow file (a huge generated module)
# never holds up the others; the GIL shares the CPU between them.
ANALYSIS_THREADS = 4
SETTINGS_SECTION = "tfscope"
PYPROJECT = "pyproject.toml"
WATCHED_CONFIG_GLOB = "**/{" + ",".join(CONFIG_FILE_NAMES) + "}"  # tfscope.toml, .tfscope.toml too

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        types.NotebookDocumentFilterWithCells(
            notebook=notebook_type, cells=[types.NotebookCellLanguage(language="python")]
        )
        for notebook_type in ("jupyter-notebook", "interactive")
    ],
    save=True,
)


@dataclass
class Result:
    """The analysis of one snapshot, converted for every editor document it covers."""

    id: str
    generation: int
    snapshot: Snapshot
    resolved: Resolved | None
    analysis: engine.Analysis | None
    diagnostics: dict[str, list[types.Diagnostic]]  # per document uri
    fixes: dict[int, list[Fix]] = field(default_factory=dict)  # per diagnostic index, on demand
    # placement at a glance, kept when the analysis is evicted
    owner_hints: list[OwnerHint] = field(default_factory=list)
    scope_summaries: list[ScopeSummary] = field(default_factory=list)
    evicted: bool = False  # ``analysis`` was dropped to save memory; ``restore`` brings it back
    signature: tuple = field(init=False)  # the diagnostics the editor was shown

    def __post_init__(self) -> None:
        self.signature = _signature(self.analysis)


def _signature(analysis: engine.Analysis | None) -> tuple:
    return tuple((d.code, d.start, d.end) for d in analysis.diagnostics) if analysis else ()


def _capability(capabilities: Any, path: str) -> Any:
    for name in path.split("."):
        capabilities = getattr(capabilities, name, None)
        if capabilities is None:
            return None
    return capabilities


def pulls_diagnostics(capabilities: types.ClientCapabilities) -> bool:
    """Pull only if the client can also be told to re-pull (settings and pyproject.toml change
    without an edit); otherwise push, and then do not advertise pull at all: never both."""
    return _capability(capabilities, "text_document.diagnostic") is not None and bool(
        _capability(capabilities, "workspace.diagnostics.refresh_support")
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
        from tfscope import __version__

        super().__init__(
            "tfscope",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            notebook_document_sync=NOTEBOOK_SYNC,
            protocol_cls=TfscopeProtocol,
        )
        self.analysis_pool = ThreadPoolExecutor(max_workers=ANALYSIS_THREADS, thread_name_prefix="tfscope-analysis")
        # jedi answers what the file cannot tell; it is slow, so it never runs in the analysis thread
        self.jedi_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tfscope-jedi")
        self.projects: dict[tuple[str | None, str | None], ProjectResolver] = {}
        self.resolving: set[ProjectResolver] = set()
        self.global_mapping: dict = {}
        self.folder_mappings: dict[str, dict] = {}
        self.configured: dict[str, dict] = {}  # workspace/configuration answers; "" is the global one
        self.results: dict[str, Result] = {}
        self.kept: OrderedDict[str, None] = OrderedDict()  # targets whose full analysis is kept, oldest first
        self.timers: dict[str, asyncio.TimerHandle] = {}
        self.last_edit: dict[str, float] = {}
        self.edit_counts: dict[str, int] = {}  # read by the worker to skip superseded snapshots
        self.in_flight: dict[str, int] = {}  # targets being analysed (at most one analysis each)
        self.rerun: set[str] = set()  # targets changed while being analysed: analysed again after
        self.waiters: dict[str, list[asyncio.Future]] = {}
        self.published_cells: dict[str, set[str]] = {}
        self.pyproject_mtimes: dict[str, float | None] = {}
        self.shown_messages: set[str] = set()
        self.background_tasks: set[asyncio.Task] = set()
        self.generation = 0  # bumped when settings change: older results are stale
        self.result_ids = itertools.count(1)
        self.configuration_ready = asyncio.Event()
        self.log_handler: ClientLogHandler | None = None

    # -- client capabilities -------------------------------------------------------------------

    def client_supports(self, path: str) -> bool:
        return bool(_capability(self.client_capabilities, path))

    @property
    def pulls_diagnostics(self) -> bool:
        return pulls_diagnostics(self.client_capabilities)

    @property
    def resolves_code_actions(self) -> bool:
        properties = _capability(self.client_capabilities, "text_document.code_action.resolve_support.properties")
        return bool(properties) and "edit" in properties and self.client_supports("text_document.code_action.data_support")

    @property
    def position_encoding(self) -> str:
        encoding = self.workspace.position_encoding or types.PositionEncodingKind.Utf16
        return getattr(encoding, "value", encoding)

    # -- settings ------------------------------------------------------------------------------

    def folder_of(self, uri: str) -> str:
        """The workspace folder (normalised uri) holding ``uri``; "" when none does."""
        path = uris.to_fs_path(uri)
        if path is None:
            return ""
        folders = {normalize_uri(folder.uri) for folder in self.workspace.folders.values()} | set(self.folder_mappings)
        holding = [
            folder
            for folder in folders
            if (folder_path := uris.to_fs_path(folder)) and (path + os.sep).startswith(folder_path.rstrip(os.sep) + os.sep)
        ]
        return max(holding, key=len, default="")

    def editor_mapping(self, key: str) -> dict:
        folder = self.folder_of(key)
        return merged(
            self.global_mapping, self.folder_mappings.get(folder), self.configured.get(""), self.configured.get(folder)
        )

    def apply_log_level(self) -> None:
        options, _ = server_options(merged(self.global_mapping, self.configured.get("")))
        logging.getLogger("tfscope").setLevel(options.log_level.upper())

    async def pull_configuration(self) -> None:
        if not self.client_supports("workspace.configuration"):
            return
        # per folder when there are folders (a client's answer for folders already includes its
        # user-level values); the unscoped section only when no folder is open
        scopes = [normalize_uri(folder.uri) for folder in self.workspace.folders.values()] or [""]
        items = [types.ConfigurationItem(scope_uri=scope or None, section=SETTINGS_SECTION) for scope in scopes]
        try:
            answers = await self.workspace_configuration_async(types.ConfigurationParams(items=items))
        except Exception:
            logger.exception("workspace/configuration failed; keeping the initialization options")
            return
        self.configured = {
            scope: dict(answer) for scope, answer in zip(scopes, answers) if isinstance(answer, Mapping)
        }

    def log_effective_settings(self) -> None:
        folders = sorted({normalize_uri(folder.uri) for folder in self.workspace.folders.values()}) or [""]
        for folder in folders:
            folder_path = uris.to_fs_path(folder) if folder else None
            resolved = resolve(self.editor_mapping(folder), folder_path, folder_path)
            logger.info(
                "settings for %s (%s, pyproject: %s): %s; %s",
                folder or "files outside any workspace folder",
                resolved.options.configuration_preference,
                resolved.pyproject_path or "none",
                resolved.options,
                resolved.settings,
            )
            self.report_setting_errors(resolved.errors, resolved.options.show_notifications)

    def report_setting_errors(self, errors: tuple[str, ...], show_notifications: str = "onWarning") -> None:
        """Once per distinct message: a log line always, a notification unless ``showNotifications`` is
        ``off`` or ``onError`` (these are warnings: tfscope goes on with defaults)."""
        if not errors:
            return
        message = "tfscope: invalid settings, defaults used for them: " + "; ".join(errors)
        if message in self.shown_messages:
            return
        self.shown_messages.add(message)
        logger.warning(message)
        if show_notifications in ("onWarning", "always"):
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))

    def report_unanalysable(self, result: Result) -> None:
        """Once per file and reason (the engine logs each time): no diagnostics must not look clean."""
        analysis = result.analysis
        if analysis is None or analysis.unanalysable is None:
            return
        message = f"tfscope: {result.snapshot.path or result.snapshot.key} cannot be analysed: {analysis.unanalysable}"
        if message in self.shown_messages:
            return
        self.shown_messages.add(message)
        show_notifications = result.resolved.options.show_notifications if result.resolved else "onWarning"
        if show_notifications in ("onWarning", "always"):
            self.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))

    async def watch_pyprojects(self) -> None:
        """Ask the client to watch pyproject.toml files; poll their mtimes if it cannot."""
        if self.client_supports("workspace.did_change_watched_files.dynamic_registration"):
            registration = types.Registration(
                id="tfscope-pyproject-watcher",
                method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
                register_options=types.DidChangeWatchedFilesRegistrationOptions(
                    watchers=[types.FileSystemWatcher(glob_pattern=WATCHED_CONFIG_GLOB)]
                ),
            )
            try:
                await self.client_register_capability_async(types.RegistrationParams(registrations=[registration]))
                return
            except Exception:
                logger.info("the client refused to watch %s; checking modification times instead", PYPROJECT)
        self.spawn(self.poll_pyprojects())

    async def poll_pyprojects(self) -> None:
        while True:
            await asyncio.sleep(PYPROJECT_POLL_SECONDS)
            self.check_pyprojects()

    def check_pyprojects(self) -> None:
        changed = [path for path, mtime in self.pyproject_mtimes.items() if _mtime(path) != mtime]
        if changed:
            logger.info("configuration changed: %s", ", ".join(changed))
            self.invalidate_all()

    def remember_pyprojects(self, result: Result) -> None:
        candidates = []
        if result.resolved and result.resolved.pyproject_path:
            candidates.append(result.resolved.pyproject_path)
        if result.snapshot.path:  # a configuration file that appears beside the document counts too
            folder = os.path.dirname(result.snapshot.path)
            candidates.extend(os.path.join(folder, name) for name in CONFIG_FILE_NAMES)
        for path in candidates:
            self.pyproject_mtimes.setdefault(path, _mtime(path))

    def invalidate_all(self) -> None:
        """Settings changed: re-analyse every open target and make pulling clients re-pull."""
        self.generation += 1
        self.results.clear()
        self.pyproject_mtimes.clear()
        self.apply_log_level()
        for key in self.open_targets():
            self.schedule(key, immediate=True)
        if self.pulls_diagnostics:
            self.workspace_diagnostic_refresh(None)
        self.refresh_glance()

    def refresh_glance(self) -> None:
        """Inlay hints and code lenses changed without an edit (settings, a resolved import)."""
        if self.client_supports("workspace.inlay_hint.refresh_support"):
            self.workspace_inlay_hint_refresh(None)
        if self.client_supports("workspace.code_lens.refresh_support"):
            self.workspace_code_lens_refresh(None)

    def open_targets(self) -> list[str]:
        texts = [document.uri for document in self.workspace.text_documents.values()]
        notebooks = [notebook.uri for notebook in self.workspace.notebook_documents.values()]
        return [uri for uri in texts if target_key(self.workspace, uri) == uri] + notebooks

    # -- analysis scheduling -------------------------------------------------------------------

    def spawn(self, coroutine) -> None:
        task = asyncio.ensure_future(coroutine)
        self.background_tasks.add(task)
        task.add_done_callback(self.background_tasks.discard)

    def edited(self, key: str, immediate: bool = False) -> None:
        self.edit_counts[key] = self.edit_counts.get(key, 0) + 1
        self.schedule(key, immediate)

    def schedule(self, key: str, immediate: bool = False) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        in_burst = now - self.last_edit.get(key, float("-inf")) < DEBOUNCE_SECONDS
        self.last_edit[key] = now
        if (timer := self.timers.pop(key, None)) is not None:
            timer.cancel()
        delay = DEBOUNCE_SECONDS if in_burst and not immediate else 0
        self.timers[key] = loop.call_later(delay, lambda: self.spawn(self.analyse(key)))

    async def analyse(self, key: str) -> None:
        self.timers.pop(key, None)
        if self.in_flight.get(key):
            # latest wins, one analysis per target at a time: a slow file holds one thread, not all
            self.rerun.add(key)
            return
        self.in_flight[key] = 1
        try:
            result = await self.analysis_for(key)
        finally:
            del self.in_flight[key]
            if key in self.rerun:
                self.rerun.discard(key)
                self.schedule(key, immediate=True)
        if result is None or not self.is_current(result):
            logger.debug("dropped the result for a superseded version of %s", key)
            return
        previous = self.results.get(key)
        self.results[key] = result
        self.keep(key)
        self.deliver(result)
        if previous is not None and previous.snapshot.version == result.snapshot.version:
            self.refresh_glance()  # analysed again without an edit (jedi found an import): the client asks anew
        if result.analysis is not None and result.analysis.unresolved:
            self.spawn(self.resolve_project(key, result.analysis.project))

    def project_for(self, folder_path: str | None, interpreter: str | None) -> ProjectResolver:
        key = (folder_path, interpreter)
        if key not in self.projects:  # analysis threads race here: setdefault keeps one resolver
            self.projects.setdefault(key, ProjectResolver(root=folder_path, interpreter=interpreter))
        return self.projects[key]

    async def resolve_project(self, key: str, project: ProjectResolver) -> None:
        """Ask jedi off the analysis path; re-analyse once it has found something new."""
        if project in self.resolving:
            return
        self.resolving.add(project)
        try:
            found = await asyncio.get_running_loop().run_in_executor(self.jedi_pool, project.resolve_pending)
        except Exception:
            logger.exception("resolving project imports with jedi failed")
            found = False
        finally:
            self.resolving.discard(project)
        if found and key in self.results:
            self.schedule(key, immediate=True)

    def keep(self, key: str) -> None:
        self.kept[key] = None
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT_ANALYSES:
            oldest, _ = self.kept.popitem(last=False)
            if (result := self.results.get(oldest)) is not None and result.analysis is not None:
                result.analysis, result.evicted = None, True
                result.fixes.clear()

    async def restore(self, result: Result) -> Result:
        """The result with its full analysis, re-analysing the same text if it was evicted."""
        if result.evicted:
            folder = self.folder_of(result.snapshot.key)
            project = self.project_for(uris.to_fs_path(folder) if folder else None, result.resolved.settings.interpreter)
            analysis = await self.run_in_analysis_thread(
                engine.analyze, result.snapshot.source, result.resolved.settings, project)
            same = _signature(analysis) == result.signature
            # not what the editor shows (a time-boxed jedi answer differs): offer nothing rather than guess
            result.analysis, result.evicted = (analysis if same else None), False
        self.keep(result.snapshot.key)
        return result

    async def full_result(self, key: str) -> Result | None:
        result = await self.current_result(key)
        return await self.restore(result) if result is not None else None

    async def analysis_for(self, key: str) -> Result | None:
        if not self.configuration_ready.is_set():
            try:
                await asyncio.wait_for(self.configuration_ready.wait(), CONFIGURATION_WAIT_SECONDS)
            except asyncio.TimeoutError:
                logger.warning("no workspace configuration yet; analysing with the initialization options")
        snapshot = take_snapshot(self.workspace, key, self.position_encoding)
        if snapshot is None:
            return None
        generation, edit_count = self.generation, self.edit_counts.get(key)
        folder = self.folder_of(key)
        settings_source = (self.editor_mapping(key), uris.to_fs_path(folder) if folder else None)
        return await self.run_in_analysis_thread(self.compute, snapshot, generation, edit_count, settings_source)

    def is_current(self, result: Result) -> bool:
        return result.generation == self.generation and current_version(
            self.workspace, result.snapshot.key
        ) == result.snapshot.version

    def compute(self, snapshot: Snapshot, generation: int, edit_count: int | None, settings_source) -> Result | None:
        """Runs in the analysis thread; never raises. ``settings_source``: (editor mapping, folder path)."""
        if self.edit_counts.get(snapshot.key) != edit_count or generation != self.generation:
            return None  # superseded while queued: the newer run is already scheduled
        result_id = f"{generation}.{next(self.result_ids)}"
        empty = {view.uri: [] for view in snapshot.views}
        try:
            mapping, folder_path = settings_source
            resolved = resolve(mapping, snapshot.path, folder_path)
            excluded = snapshot.path is not None and is_skipped(resolved.settings, snapshot.path)
            if not resolved.options.enable or excluded:
                return Result(result_id, generation, snapshot, resolved, None, empty)
            project = self.project_for(folder_path, resolved.settings.interpreter)
            analysis = engine.analyze(snapshot.source, resolved.settings, project)
            diagnostics = self.convert(result_id, snapshot, analysis, resolved)
            return Result(result_id, generation, snapshot, resolved, analysis, diagnostics,
                          owner_hints=analysis.owner_hints, scope_summaries=analysis.scope_summaries)
        except Exception:
            logger.exception("analysing %s failed; the server keeps serving", snapshot.key)
            return Result(result_id, generation, snapshot, None, None, empty)

    def convert(self, result_id: str, snapshot: Snapshot, analysis, resolved: Resolved) -> dict[str, list]:
        diagnostics: dict[str, list[types.Diagnostic]] = {view.uri: [] for view in snapshot.views}
        for index, diagnostic in enumerate(analysis.diagnostics):
            view = next((view for view in snapshot.views if view.start <= diagnostic.start <= view.end), None)
            if view is None:
                continue
            clamped = diagnostic if diagnostic.end <= view.end else replace(diagnostic, end=view.end)
            data = {"result": result_id, "index": index}
            diagnostics[view.uri].append(
                to_lsp_diagnostic(view, clamped, data, resolved.options.docs_url, list(snapshot.views))
            )
        return diagnostics

    def deliver(self, result: Result) -> None:
        key = result.snapshot.key
        for waiter in self.waiters.pop(key, []):
            if not waiter.done():
                waiter.set_result(None)
        if result.resolved:
            self.report_setting_errors(result.resolved.errors, result.resolved.options.show_notifications)
        self.remember_pyprojects(result)
        self.report_unanalysable(result)
        if result.snapshot.is_notebook or not self.pulls_diagnostics:
            self.publish(result)

    def publish(self, result: Result) -> None:
        snapshot = result.snapshot
        for view in snapshot.views:
            self.publish_list(view.uri, snapshot.view_versions.get(view.uri), result.diagnostics[view.uri])
        if snapshot.is_notebook:
            current = {view.uri for view in snapshot.views}
            for removed in self.published_cells.get(snapshot.key, set()) - current:
                self.publish_list(removed, None, [])
            self.published_cells[snapshot.key] = current

    def publish_list(self, uri: str, version: int | None, diagnostics: list[types.Diagnostic]) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    async def current_result(self, key: str) -> Result | None:
        """The result for the target's current text and settings, waiting for it if needed."""
        while (version := current_version(self.workspace, key)) is not None:
            result = self.results.get(key)
            if result is not None and result.snapshot.version == version and result.generation == self.generation:
                return result
            if key not in self.timers and not self.in_flight.get(key):
                self.schedule(key, immediate=True)
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.setdefault(key, []).append(waiter)
            try:
                await asyncio.wait_for(waiter, RESULT_RECHECK_SECONDS)
            except asyncio.TimeoutError:
                continue
        return None

    async def run_in_analysis_thread(self, function: Callable, *args):
        return await asyncio.get_running_loop().run_in_executor(self.analysis_pool, function, *args)

    async def fixes(self, result: Result, index: int) -> list[Fix]:
        if index not in result.fixes:
            diagnostic = result.analysis.diagnostics[index]
            try:
                result.fixes[index] = await self.run_in_analysis_thread(engine.fixes_for, result.analysis, diagnostic)
            except Exception:
                logger.exception("computing fixes for %s failed", diagnostic.code)
                result.fixes[index] = []
        return result.fixes[index]

    def closed(self, key: str, cell_uris: list[str] = ()) -> None:
        if (timer := self.timers.pop(key, None)) is not None:
            timer.cancel()
        for table in (self.results, self.kept, self.last_edit, self.edit_counts):
            table.pop(key, None)
        for waiter in self.waiters.pop(key, []):
            if not waiter.done():
                waiter.set_result(None)
        published = self.published_cells.pop(key, set())
        if cell_uris or published:
            for uri in published | set(cell_uris):
                self.publish_list(uri, None, [])
        elif not self.pulls_diagnostics:
            self.publish_list(key, None, [])


def _mtime(path: str) -> float | None:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None


def build_server() -> TfscopeServer:
    all_rules()  # the rule registry fills lazily; here, before analysis threads could race to fill it
    server = TfscopeServer()

    @server.feature(types.INITIALIZE)
    def initialize(ls: TfscopeServer, params: types.InitializeParams) -> None:
        options, option_errors = checked_initialization_options(params.initialization_options)
        ls.global_mapping, ls.folder_mappings = split_initialization_options(options)
        ls.log_handler.attach(asyncio.get_running_loop())
        ls.report_setting_errors(tuple(option_errors))
        ls.apply_log_level()
        mode = "pull" if ls.pulls_diagnostics else "push"
        logger.info("tfscope %s starting: %s diagnostics, %s positions", ls.version, mode, ls.position_encoding)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: TfscopeServer, params: types.InitializedParams) -> None:
        await ls.pull_configuration()
        ls.configuration_ready.set()
        ls.apply_log_level()
        ls.log_effective_settings()
        await ls.watch_pyprojects()

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: TfscopeServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.edited(params.text_document.uri, immediate=True)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: TfscopeServer, params: types.DidChangeTextDocumentParams) -> None:
        ls.edited(target_key(ls.workspace, params.text_document.uri))

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: TfscopeServer, params: types.DidSaveTextDocumentParams) -> None:
        ls.check_pyprojects()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: TfscopeServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.closed(params.text_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)
    def notebook_did_open(ls: TfscopeServer, params: types.DidOpenNotebookDocumentParams) -> None:
        ls.edited(params.notebook_document.uri, immediate=True)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)
    def notebook_did_change(ls: TfscopeServer, params: types.DidChangeNotebookDocumentParams) -> None:
        ls.edited(params.notebook_document.uri)

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)
    def notebook_did_save(ls: TfscopeServer, params: types.DidSaveNotebookDocumentParams) -> None:
        ls.check_pyprojects()

    @server.feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)
    def notebook_did_close(ls: TfscopeServer, params: types.DidCloseNotebookDocumentParams) -> None:
        ls.closed(params.notebook_document.uri, [cell.uri for cell in params.cell_text_documents])

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(identifier="tfscope", inter_file_dependencies=False, workspace_diagnostics=False),
    )
    async def pull_diagnostics(ls: TfscopeServer, params: types.DocumentDiagnosticParams):
        uri = params.text_document.uri
        key = target_key(ls.workspace, uri)
        if key != uri:  # notebook cells are always pushed: the whole notebook changes together
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result = await ls.current_result(key)
        if result is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        if params.previous_result_id == result.id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.id)
        return types.RelatedFullDocumentDiagnosticReport(items=result.diagnostics.get(uri, []), result_id=result.id)

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=list(actions.CODE_ACTION_KINDS), resolve_provider=True),
    )
    async def code_action(ls: TfscopeServer, params: types.CodeActionParams):
        return await actions.code_actions(ls, params)

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def code_action_resolve(ls: TfscopeServer, action: types.CodeAction) -> types.CodeAction:
        return await actions.resolve(ls, action)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def on_hover(ls: TfscopeServer, params: types.HoverParams):
        return await hover.hover(ls, params)

    @server.feature(types.TEXT_DOCUMENT_INLAY_HINT, types.InlayHintOptions(resolve_provider=True))
    async def on_inlay_hint(ls: TfscopeServer, params: types.InlayHintParams):
        return await inlay_hints.inlay_hints(ls, params)

    @server.feature(types.INLAY_HINT_RESOLVE)
    def on_inlay_hint_resolve(ls: TfscopeServer, hint: types.InlayHint) -> types.InlayHint:
        return inlay_hints.resolve(ls, hint)

    @server.feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))
    async def on_code_lens(ls: TfscopeServer, params: types.CodeLensParams):
        return await code_lens.code_lenses(ls, params)

    @server.command(actions.APPLY_FIX_ALL_COMMAND)
    async def apply_fix_all(ls: TfscopeServer, uri: str) -> None:
        await actions.apply_fix_all(ls, uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: TfscopeServer, params: types.DidChangeConfigurationParams) -> None:
        if ls.client_supports("workspace.configuration"):
            await ls.pull_configuration()
        elif isinstance(params.settings, Mapping) and isinstance(params.settings.get(SETTINGS_SECTION), Mapping):
            ls.configured = {"": dict(params.settings[SETTINGS_SECTION])}
        ls.invalidate_all()
        ls.log_effective_settings()

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_folders(ls: TfscopeServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        await ls.pull_configuration()
        ls.invalidate_all()

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: TfscopeServer, params: types.DidChangeWatchedFilesParams) -> None:
        if any(change.uri.rpartition("/")[2] in CONFIG_FILE_NAMES for change in params.changes):
            ls.invalidate_all()

    return server


def start_server(tcp: str | None = None, log_file: str | None = None) -> None:
    """Serve over stdio, or over TCP when ``tcp`` is "HOST:PORT" (or just "PORT")."""
    server = build_server()
    server.log_handler = configure_logging(server, log_file)
    if tcp:
        host, _, port = tcp.rpartition(":")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
