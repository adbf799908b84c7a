"""The state of one editor session: open documents' results per version, which full analyses are
kept (the rest evicted), the requests waiting for a result, and the fix cache. Feature modules
(``tfscope.lsp.features``) take a Session; they never reach into the server."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, Callable

from pygls import uris

from tfscope.lsp.analysis import Analyzer, Result
from tfscope.lsp.cell_pulls import CellPulls
from tfscope.lsp.client import Client
from tfscope.lsp.configuration import Configuration
from tfscope.lsp.documents import Snapshot, current_version, take_snapshot, target_key
from tfscope.lsp.scheduler import Scheduler
from tfscope.notebook import saved_run
from tfscope.rules import all_rules
from tfscope.source import RecordedRun

logger = logging.getLogger("tfscope.lsp")

RUN_ON_SAVE = "onSave"
# Full analyses (syntax tree, semantic model: megabytes for a long script) kept for code actions
# and hovers; older ones keep only their diagnostics and are re-analysed when next needed.
KEPT_ANALYSES = 8
RESULT_RECHECK_SECONDS = 5.0  # a waiting request re-checks that an analysis is on its way


class Session:
    def __init__(self, client: Client, initialization_options: Any) -> None:
        all_rules()  # the rule registry fills lazily; here, before analysis threads could race to fill it
        self.client = client
        self.configuration = Configuration(client, initialization_options)
        self.configuration.on_change = self.settings_changed
        self.analyzer = Analyzer(client, self.configuration)
        self.scheduler: Scheduler[Result] = Scheduler(self._analyse, self._deliver, client.spawn)
        self.results: dict[str, Result] = {}
        self.kept: OrderedDict[str, None] = OrderedDict()  # targets whose full analysis is kept, oldest first
        self.waiters: dict[str, list[asyncio.Future]] = {}
        self.edit_counts: dict[str, int] = {}  # read by analysis threads to skip superseded snapshots
        self.saved: dict[str, Snapshot] = {}  # the text as opened or last saved, what `run: onSave` analyses
        # per notebook, what its file records of its last run (outputs, kernel), read when opened or saved
        self.recorded_runs: dict[str, RecordedRun] = {}
        self.published_cells: dict[str, set[str]] = {}  # per notebook, the cell uris last published
        self.pulled_cells = CellPulls()  # per notebook, the cells the client pulls: never pushed
        self.on_result: list[Callable[[Result], None]] = []  # features told of each current result
        self.on_close: list[Callable[[str, list[str]], None]] = []  # (target, its cell uris)

    @property
    def workspace(self):
        return self.client.workspace

    def target_of(self, uri: str) -> str:
        return target_key(self.workspace, uri)

    # -- edits and analyses ----------------------------------------------------------------------

    def runs_on_save(self, key: str) -> bool:
        return self.configuration.server_options(key).run == RUN_ON_SAVE

    def opened(self, key: str) -> None:
        self._remember_saved(key)
        self._changed(key)

    def edited(self, key: str) -> None:
        if not self.runs_on_save(key):
            self._changed(key)

    def was_saved(self, key: str) -> None:
        self.configuration.check_files()
        self._remember_saved(key)
        if self.runs_on_save(key):
            self._changed(key)

    def _remember_saved(self, key: str) -> None:
        """Read on the event loop, in the handler of the open or save: exactly that text."""
        if self.workspace.get_notebook_document(notebook_uri=key) is not None and (path := uris.to_fs_path(key)):
            self.recorded_runs[key] = saved_run(path)
        if (snapshot := self._snapshot(key)) is not None:
            self.saved[key] = snapshot

    def _snapshot(self, key: str) -> Snapshot | None:
        return take_snapshot(self.workspace, key, self.client.position_encoding,
                             self.recorded_runs.get(key, RecordedRun()))

    def _changed(self, key: str) -> None:
        self.edit_counts[key] = self.edit_counts.get(key, 0) + 1
        self.scheduler.schedule(key)

    def wanted_version(self, key: str) -> object | None:
        """The version diagnostics are wanted for: the current one, or the saved one with onSave."""
        version = current_version(self.workspace, key)
        if version is not None and self.runs_on_save(key) and key in self.saved:
            return self.saved[key].version
        return version

    async def _analyse(self, key: str) -> Result | None:
        await self.configuration.wait_until_ready()
        saved = self.saved.get(key)  # also the current text, right after an open or a save
        if saved is not None and (self.runs_on_save(key) or saved.version == current_version(self.workspace, key)):
            snapshot = saved
        else:
            snapshot = self._snapshot(key)
        if snapshot is None:
            return None
        generation, edit_count = self.configuration.generation, self.edit_counts.get(key)

        def still_wanted() -> bool:
            return self.edit_counts.get(key) == edit_count and self.configuration.generation == generation

        return await self.analyzer.run(self.analyzer.compute, snapshot, generation, still_wanted)

    def is_current(self, result: Result) -> bool:
        return (
            result.generation == self.configuration.generation
            and self.wanted_version(result.snapshot.key) == result.snapshot.version
        )

    def _deliver(self, result: Result) -> bool:
        if not self.is_current(result):
            logger.debug("dropped the result for a superseded version of %s", result.snapshot.key)
            return False
        key = result.snapshot.key
        previous = self.results.get(key)
        self.results[key] = result
        self.keep(key)
        for waiter in self.waiters.pop(key, []):
            if not waiter.done():
                waiter.set_result(None)
        if result.effective is not None:
            resolved = result.effective.resolved
            self.client.report_invalid_settings(resolved.errors, resolved.options.show_notifications)
            self.configuration.remember_files(result.effective, result.snapshot.path)
        self._report_unanalysable(result)
        for listener in self.on_result:
            listener(result)
        # the client pulls when the text changes; a save, or jedi's answer for the same text, does not
        same_text_new_findings = previous is not None and previous.snapshot.version == result.snapshot.version and (
            previous.signature != result.signature
        )
        if self.client.pulls_diagnostics and not result.snapshot.is_notebook and (
            self.runs_on_save(key) or same_text_new_findings
        ):
            self.client.refresh_diagnostics()
        if result.analysis is not None and result.analysis.unresolved:
            self.client.spawn(self._resolve_imports(key, result))
        return True

    def _report_unanalysable(self, result: Result) -> None:
        """No diagnostics must not look clean; once per file and reason (the engine logs each time)."""
        analysis = result.analysis
        if analysis is not None and analysis.unanalysable is not None:
            where = result.snapshot.path or result.snapshot.key
            message = f"tfscope: {where} cannot be analysed: {analysis.unanalysable}"
            self.client.warn_once(message, result.show_notifications, log=False)

    async def _resolve_imports(self, key: str, result: Result) -> None:
        """Re-analyse once jedi has found something new for the imports the file could not tell."""
        if await self.analyzer.resolve_imports(result.analysis.project) and key in self.results:
            self.scheduler.schedule(key)

    def settings_changed(self) -> None:
        """Re-analyse every open target and make pulling clients re-pull."""
        self.results.clear()
        for key in self.open_targets():
            self.scheduler.schedule(key)
        if self.client.pulls_diagnostics:
            self.client.refresh_diagnostics()

    def open_targets(self) -> list[str]:
        texts = [document.uri for document in self.workspace.text_documents.values()]
        notebooks = [notebook.uri for notebook in self.workspace.notebook_documents.values()]
        return [uri for uri in texts if self.target_of(uri) == uri] + notebooks

    # -- results for requests --------------------------------------------------------------------

    async def current_result(self, key: str) -> Result | None:
        """The result for the target's current text and settings, waiting for it if needed."""
        while (version := self.wanted_version(key)) is not None:
            result = self.results.get(key)
            if result is not None and result.snapshot.version == version and result.generation == self.configuration.generation:
                return result
            self.scheduler.schedule(key)  # joins the run in progress, if any
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.setdefault(key, []).append(waiter)
            try:
                await asyncio.wait_for(waiter, RESULT_RECHECK_SECONDS)
            except asyncio.TimeoutError:
                continue
        return None

    async def full_result(self, key: str) -> Result | None:
        """The current result with its full analysis, for actions and hovers: only if it is of the
        editor's text (with onSave and unsaved edits it is not, and edits for it would not fit)."""
        result = await self.current_result(key)
        if result is None or result.snapshot.version != current_version(self.workspace, key):
            return None
        return await self.restore(result)

    def keep(self, key: str) -> None:
        self.kept[key] = None
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT_ANALYSES:
            oldest, _ = self.kept.popitem(last=False)
            self.analyzer.forget(oldest)
            if (result := self.results.get(oldest)) is not None:
                result.evict()

    async def restore(self, result: Result) -> Result:
        """The result with its full analysis, re-analysing the same text if it was evicted."""
        if result.evicted:
            result.analysis, result.evicted = await self.analyzer.reanalysed(result), False
        self.keep(result.snapshot.key)
        return result

    def result_by_id(self, key: str, result_id: str) -> Result | None:
        """The result a code action was listed from, if its document has not changed since."""
        result = self.results.get(key)
        return result if result is not None and result.id == result_id else None

    # -- closing -------------------------------------------------------------------------------

    def closed(self, key: str, cell_uris: list[str] = ()) -> None:
        self.scheduler.cancel(key)
        for table in (self.results, self.kept, self.edit_counts, self.saved, self.recorded_runs):
            table.pop(key, None)
        self.configuration.forget(key)
        self.analyzer.forget(key)
        for waiter in self.waiters.pop(key, []):
            if not waiter.done():
                waiter.set_result(None)
        for listener in self.on_close:
            listener(key, list(cell_uris))

    def shutdown(self) -> None:
        self.client.cancel_background()
        self.analyzer.shutdown()
