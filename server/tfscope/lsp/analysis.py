"""One analysis: a snapshot's settings, the engine's findings, and those findings converted for
every editor document the snapshot covers. Runs in worker threads; jedi has a thread of its own."""

from __future__ import annotations

import asyncio
import itertools
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Callable

from lsprotocol import types

from tfscope import engine
from tfscope.diagnostics import Fix
from tfscope.incremental import IncrementalAnalyzer
from tfscope.lsp.client import Client
from tfscope.lsp.configuration import Configuration, Effective
from tfscope.lsp.convert import to_lsp_diagnostic
from tfscope.lsp.documents import Snapshot
from tfscope.ownership import OwnerHint, ScopeSummary
from tfscope.resolve.project import ProjectResolver

logger = logging.getLogger("tfscope.lsp")

# Analyses run side by side, one per target at most, so one slow file (a huge generated module)
# never holds up the others; the GIL shares the CPU between them.
ANALYSIS_THREADS = 4
INDEXING_TITLE = "tfscope: resolving project imports"


@dataclass
class Result:
    """The analysis of one snapshot, converted for every editor document it covers."""

    id: str
    generation: int
    snapshot: Snapshot
    effective: Effective | None
    analysis: engine.Analysis | None
    diagnostics: dict[str, list[types.Diagnostic]]  # per document uri
    fixes: dict[int, list[Fix]] = field(default_factory=dict)  # per diagnostic index, on demand
    evicted: bool = False  # ``analysis`` was dropped to save memory; ``restore`` brings it back
    signature: tuple = field(init=False)  # the diagnostics the editor was shown
    # placement at a glance, kept from the first analysis once it is evicted (a re-analysis may differ)
    _kept_glance: tuple[list[OwnerHint], list[ScopeSummary]] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self.signature = signature(self.analysis)

    @property
    def owner_hints(self) -> list[OwnerHint]:
        return self._glance[0]

    @property
    def scope_summaries(self) -> list[ScopeSummary]:
        return self._glance[1]

    @property
    def _glance(self) -> tuple[list[OwnerHint], list[ScopeSummary]]:
        if self._kept_glance is not None:
            return self._kept_glance
        if self.analysis is None:
            return [], []
        return self.analysis.owner_hints, self.analysis.scope_summaries

    def evict(self) -> None:
        """Drop the full analysis to save memory, keeping what the hints and lenses show."""
        if self.analysis is not None:
            self._kept_glance = self._glance
            self.analysis, self.evicted = None, True
            self.fixes.clear()

    @property
    def show_notifications(self) -> str:
        return self.effective.resolved.options.show_notifications if self.effective else "onWarning"


def signature(analysis: engine.Analysis | None) -> tuple:
    return tuple((d.code, d.start, d.end) for d in analysis.diagnostics) if analysis else ()


class Analyzer:
    def __init__(self, client: Client, configuration: Configuration) -> None:
        self.client = client
        self.configuration = configuration
        self.pool = ThreadPoolExecutor(max_workers=ANALYSIS_THREADS, thread_name_prefix="tfscope-analysis")
        # jedi answers what the file cannot tell; it is slow, so it never runs in an analysis thread
        self.jedi_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tfscope-jedi")
        self.projects: dict[tuple[str | None, str | None], ProjectResolver] = {}
        self.resolving: set[ProjectResolver] = set()
        self.result_ids = itertools.count(1)
        self.incremental: dict[str, IncrementalAnalyzer] = {}  # per target: re-parses only what an edit touched

    async def run(self, function: Callable, *args):
        """``function(*args)`` in an analysis thread."""
        return await asyncio.get_running_loop().run_in_executor(self.pool, function, *args)

    def project_for(self, folder_path: str | None, interpreter: str | None) -> ProjectResolver:
        key = (folder_path, interpreter)
        if key not in self.projects:  # analysis threads race here: setdefault keeps one resolver
            self.projects.setdefault(key, ProjectResolver(root=folder_path, interpreter=interpreter))
        return self.projects[key]

    def compute(self, snapshot: Snapshot, generation: int, still_wanted: Callable[[], bool]) -> Result | None:
        """In an analysis thread; never raises. None when superseded while it waited for a thread."""
        if not still_wanted():
            return None
        result_id = f"{generation}.{next(self.result_ids)}"
        empty = {view.uri: [] for view in snapshot.views}
        try:
            effective = self.configuration.effective(snapshot.key, snapshot.path)
            resolved = effective.resolved
            if not resolved.options.enable or effective.excluded:
                return Result(result_id, generation, snapshot, effective, None, empty)
            project = self.project_for(effective.folder_path, resolved.settings.interpreter)
            incremental = self.incremental.setdefault(snapshot.key, IncrementalAnalyzer())
            analysis = incremental.analyze(snapshot.source, resolved.settings, project)
            diagnostics = self._convert(result_id, snapshot, analysis, resolved.options.docs_url)
            return Result(result_id, generation, snapshot, effective, analysis, diagnostics)
        except Exception:
            logger.exception("analysing %s failed; the server keeps serving", snapshot.key)
            return Result(result_id, generation, snapshot, None, None, empty)

    def _convert(self, result_id: str, snapshot: Snapshot, analysis, docs_url: str | None) -> dict[str, list]:
        diagnostics: dict[str, list[types.Diagnostic]] = {view.uri: [] for view in snapshot.views}
        for index, diagnostic in enumerate(analysis.diagnostics):
            view = next((view for view in snapshot.views if view.start <= diagnostic.start <= view.end), None)
            if view is None:
                continue
            clamped = diagnostic if diagnostic.end <= view.end else replace(diagnostic, end=view.end)
            data = {"result": result_id, "index": index}
            diagnostics[view.uri].append(to_lsp_diagnostic(view, clamped, data, docs_url, list(snapshot.views)))
        return diagnostics

    def forget(self, key: str) -> None:
        """The target was closed or its analysis evicted: its kept statements go too."""
        self.incremental.pop(key, None)

    async def reanalysed(self, result: Result) -> engine.Analysis | None:
        """The full analysis of an evicted result's text, if it still says what the editor shows."""
        settings = result.effective.resolved.settings
        project = self.project_for(result.effective.folder_path, settings.interpreter)
        analysis = await self.run(engine.analyze, result.snapshot.source, settings, project)
        # not what the editor shows (a time-boxed jedi answer differs): offer nothing rather than guess
        return analysis if signature(analysis) == result.signature else None

    async def fixes(self, result: Result, index: int) -> list[Fix]:
        """The validated fixes of one finding, computed once per result."""
        if index not in result.fixes:
            diagnostic = result.analysis.diagnostics[index]
            try:
                result.fixes[index] = await self.run(engine.fixes_for, result.analysis, diagnostic)
            except Exception:
                logger.exception("computing fixes for %s failed", diagnostic.code)
                result.fixes[index] = []
        return result.fixes[index]

    async def resolve_imports(self, project: ProjectResolver) -> bool:
        """Ask jedi off the analysis path (with work-done progress); True if it found something new."""
        if project in self.resolving:
            return False
        self.resolving.add(project)
        try:
            async with self.client.progress(INDEXING_TITLE):
                return await asyncio.get_running_loop().run_in_executor(self.jedi_pool, project.resolve_pending)
        except Exception:
            logger.exception("resolving project imports with jedi failed")
            return False
        finally:
            self.resolving.discard(project)

    def shutdown(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)
        self.jedi_pool.shutdown(wait=True, cancel_futures=True)
