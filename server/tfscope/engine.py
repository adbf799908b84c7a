"""The one entry point: text in, diagnostics out; fixes validated on demand."""

from __future__ import annotations

import ast
import functools
import logging
import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from tfscope import config, fixes, ownership, script_runs
from tfscope.collector import collector_paused
from tfscope.config import DEFAULT_SETTINGS, Settings
from tfscope.diagnostics import Diagnostic, Edit, Fix, Related
from tfscope.model.builder import ModelBuilder
from tfscope.model.entities import Owner, SemanticModel
from tfscope.parsing import PRUNING, NotAnalysable, Pruning, parse_tolerant
from tfscope.resolve import keras_version
from tfscope.resolve.project import ProjectResolver
from tfscope.rules import Rule, Violation, get_rule
from tfscope.source import Source

log = logging.getLogger(__name__)

DEFAULT_KERAS_VERSION = keras_version.DEFAULT
UNUSED_NOQA = "TFS100"


@dataclass
class Analysis:
    source: Source
    settings: Settings = DEFAULT_SETTINGS
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tree: ast.Module | None = None
    parsed_cleanly: bool = True
    keras_version: int = DEFAULT_KERAS_VERSION
    project: ProjectResolver | None = None
    unresolved: bool = False  # project imports jedi has not answered yet: re-analyse after resolve_pending
    # names bound to variable owners: (target, owner), described on the first hover (see ``placements``)
    bindings: list[tuple[ast.AST, Owner]] = field(default_factory=list, repr=False)
    # the model the diagnostics came from: placement at a glance (inlay hints, code lenses) reads it
    model: SemanticModel | None = field(default=None, repr=False, compare=False)
    # (start, end) of code nested too deeply to analyse, left out; the rest of the file is analysed
    skipped: list[tuple[int, int]] = field(default_factory=list)
    unanalysable: str | None = None  # why nothing of the file could be analysed (then no diagnostics)
    _placements: list[tuple[int, int, str]] | None = field(default=None, repr=False, compare=False)
    _explained: dict[int, str] = field(default_factory=dict, repr=False, compare=False)
    _owner_hints: list[ownership.OwnerHint] | None = field(default=None, repr=False, compare=False)
    _scope_summaries: list[ownership.ScopeSummary] | None = field(default=None, repr=False, compare=False)

    @property
    def owner_hints(self) -> list[ownership.OwnerHint]:
        """The inlay hints' facts: worked out when first asked, as diagnostics never need them."""
        if self._owner_hints is None:
            self._owner_hints = (ownership.owner_hints(self.source, self.model, self.explain)
                                 if self.model is not None else [])
        return self._owner_hints

    @property
    def scope_summaries(self) -> list[ownership.ScopeSummary]:
        """The code lenses' facts, worked out when first asked."""
        if self._scope_summaries is None:
            self._scope_summaries = (ownership.scope_summaries(self.source, self.model, self.tree)
                                     if self.model is not None and self.tree is not None else [])
        return self._scope_summaries

    @property
    def placements(self) -> list[tuple[int, int, str]]:
        """(start, end, hover text) of each name bound to a variable owner: only hovers need them."""
        if self._placements is None:
            self._placements = _placements(self.source, self.bindings, self.explain)
        return self._placements

    def explain(self, owner: Owner) -> str:
        """The hover's text for an owner, shared with the inlay hints' tooltips."""
        if id(owner) not in self._explained:
            self._explained[id(owner)] = describe_placement(self.source, owner)
        return self._explained[id(owner)]

    def placement_at(self, offset: int) -> str | None:
        for start, end, description in self.placements:
            if start <= offset <= end:
                return description
        return None


class RunCounter:
    """How many analyses ran in this process: tests and benchmarks read it (fix validation's cost)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.value = 0

    def increment(self) -> None:
        with self._lock:
            self.value += 1


analysis_runs = RunCounter()


Parse = Callable[[str], tuple[ast.Module, bool]]  # code -> (tree, whether lines were neutralised)
# (tree, Keras major version, settings, path, project) -> (model, whether jedi still owes an answer)
Build = Callable[[ast.Module, int, Settings, str | None, ProjectResolver | None], tuple[SemanticModel, bool]]


def build_model(tree: ast.Module, keras_major: int, settings: Settings, path: str | None,
                project: ProjectResolver | None) -> tuple[SemanticModel, bool]:
    builder = ModelBuilder(tree, keras_major, settings, path=path, project=project)
    return builder.build(), builder.unresolved


# Rounds of jedi look-ups per file: imports followed this many modules deep.
IMPORT_ROUNDS = 4


def analyze_following_imports(source: Source, settings: Settings, project: ProjectResolver) -> Analysis:
    """``analyze`` as a batch run wants it: again after jedi answers the imports the last pass
    left pending, as each pass may reach a module one import further (a base class's base)."""
    analysis = analyze(source, settings, project)
    for _ in range(IMPORT_ROUNDS):
        if not (analysis.unresolved and project.resolve_pending()):
            break
        analysis = analyze(source, settings, project)
    return analysis


def analyze(source: Source, settings: Settings = DEFAULT_SETTINGS, project: ProjectResolver | None = None,
            parse: Parse = parse_tolerant, build: Build = build_model) -> Analysis:
    """Analyse one file or notebook. Never raises on bad input; never runs user code.

    ``project`` lets factories from other modules of the project count, as far as jedi has
    already found them (see ``ProjectResolver``); the analysis itself never waits for jedi.
    ``parse`` gives the same tree as ``parse_tolerant`` (see ``incremental``, which reuses
    the unchanged statements of the previous version) and ``build`` the same model as
    ``build_model`` (``incremental`` reuses the previous one for the same tree).
    """
    analysis_runs.increment()
    analysis = Analysis(source=source, settings=settings, project=project)
    problem = _attempt(analysis, parse, build)
    for depth in PRUNED_DEPTHS if problem is RecursionError else ():
        # our recursive analysis ran out of stack: cut the deepest code out and analyse the rest
        pruning = Pruning(depth)
        token = PRUNING.set(pruning)
        try:
            analysis = Analysis(source=source, settings=settings, project=project)
            problem = _attempt(analysis, parse_tolerant, build_model)  # a fresh tree: pruning cuts it
        finally:
            PRUNING.reset(token)
        if problem is None:
            analysis.skipped = [source.node_span(node) for node in pruning.skipped]
            _log_skipped(source, analysis.skipped)
            break
    if problem is None:
        return analysis
    reason = "it is nested too deeply" if problem is RecursionError else problem
    log.warning("tfscope: %s cannot be analysed: %s", source.path or "<text>", reason)
    return Analysis(source=source, settings=settings, project=project, parsed_cleanly=False, unanalysable=reason)


# Tried in turn after a RecursionError: levels of the syntax tree kept (real code stays far below).
PRUNED_DEPTHS = (100, 25)


def _attempt(analysis: Analysis, parse: Parse, build: Build) -> str | type[RecursionError] | None:
    """None when the analysis ran; else RecursionError, or why the file cannot be analysed."""
    try:
        with collector_paused():
            _analyze_into(analysis, parse, build)
    except NotAnalysable as error:
        return str(error)
    except RecursionError:
        return RecursionError
    except MemoryError:
        return "the analysis ran out of memory"
    return None


def _log_skipped(source: Source, skipped: list[tuple[int, int]]) -> None:
    lines = sorted({(source.line_of(start) + 1, source.line_of(end) + 1) for start, end in skipped})
    where = ", ".join(f"{first}" if first == last else f"{first}-{last}" for first, last in lines[:5])
    more = f" and {len(lines) - 5} more" if len(lines) > 5 else ""
    log.warning(
        "tfscope: %s: code nested too deeply to analyse on line %s%s; skipped it and analysed the rest",
        source.path or "<text>", where, more,
    )


def _analyze_into(analysis: Analysis, parse: Parse, build: Build) -> None:
    source, settings = analysis.source, analysis.settings
    if fixes.file_is_exempt(source):
        return
    tree, recovered = parse(source.code)
    analysis.tree, analysis.parsed_cleanly = tree, not recovered
    version = _keras_version_of(source, settings)
    analysis.keras_version = version.major
    model, analysis.unresolved = build(tree, version.major, settings, source.path, analysis.project)
    script_runs.add_evidence(model, version, source.path, settings)
    seen_by_scripts, run_by_scripts = _script_runs(analysis, tree, version)
    suppressions = fixes.noqa_suppressions(source)
    suppressed: set[tuple[int, str]] = set()  # (line, code) a noqa took away
    diagnostics: dict[tuple[str, int, int], Diagnostic] = {}
    for rule, severity in config.rules_in_effect(settings, source.path):
        own = [violation for violation in rule.check(model) if not run_by_scripts(violation)]
        for violation in [*own, *seen_by_scripts.get(rule.code, ())]:
            diagnostic = _diagnostic(source, rule, severity, violation)
            line = source.position(diagnostic.start)[0]
            if fixes.is_suppressed(suppressions, line, rule.code):
                suppressed.add((line, rule.code))
                continue
            diagnostics.setdefault((rule.code, diagnostic.start, diagnostic.end), diagnostic)
    for diagnostic in _unused_noqa(source, settings, suppressed):
        diagnostics.setdefault((diagnostic.code, diagnostic.start, diagnostic.end), diagnostic)
    analysis.diagnostics = sorted(diagnostics.values(), key=lambda d: (d.start, d.code))
    analysis.bindings = model.bindings
    analysis.model = model


def _script_runs(analysis: Analysis, tree: ast.Module, version) -> tuple[dict[str, list[Violation]], Callable]:
    """(what the project's scripts break in this module when they run it, by rule code; whether a
    finding of the module's own lies where those runs know better): see ``script_runs``."""
    source, project = analysis.source, analysis.project
    if project is None or not source.path or source.is_notebook:
        return {}, lambda violation: False
    runs, unresolved = script_runs.runs_of(source.path, analysis.settings, project, version)
    analysis.unresolved = analysis.unresolved or unresolved
    if not runs:
        return {}, lambda violation: False
    places = script_runs.Places(tree, source.code)
    return script_runs.seen_by_scripts(runs, places), script_runs.run_by_scripts(runs, places)


def _unused_noqa(source: Source, settings: Settings, suppressed: set[tuple[int, str]]) -> list[Diagnostic]:
    """TFS100: `# noqa: TFSxxx` codes that took nothing away (blanket and other tools' codes aside)."""
    rule = get_rule(UNUSED_NOQA)
    if not config.is_enabled(settings, UNUSED_NOQA, source.path):
        return []
    found = []
    for directive in fixes.noqa_directives(source):
        if directive.codes is fixes.ALL:
            continue
        unused = sorted(code for code in directive.codes if code.startswith("TFS") and code != UNUSED_NOQA
                        and not any((line, code) in suppressed for line in directive.lines))
        if unused:
            names = ", ".join(f"`{code}`" for code in unused)
            found.append(Diagnostic(UNUSED_NOQA, rule.name, f"Unused `noqa` directive (unused: {names})",
                                    config.severity_for(settings, UNUSED_NOQA), directive.start, directive.end))
    return found


def detect_keras_version(source: Source, settings: Settings) -> int:
    """2 or 3: see ``resolve.keras_version`` for the evidence, strongest first."""
    return _keras_version_of(source, settings).major


def _keras_version_of(source: Source, settings: Settings) -> keras_version.KerasVersion:
    return keras_version.detect(source.code, source.path, settings.keras_version, settings.interpreter, source.recorded)


def _diagnostic(source: Source, rule: Rule, severity, violation: Violation) -> Diagnostic:
    start, end = _span(source, violation.node)
    related = tuple(
        Related(*_span(source, node), message) for node, message in violation.related if node is not None
    )
    return Diagnostic(
        code=rule.code,
        name=rule.name,
        message=violation.message,
        severity=severity,
        start=start,
        end=end,
        related=related,
        unnecessary=rule.unnecessary,
        explanation=violation.explanation,
        intent=violation.intent,
    )


def _span(source: Source, node: ast.AST) -> tuple[int, int]:
    """A statement's squiggle covers its first line only: a whole `with` block would drown the editor."""
    start, end = source.node_span(node)
    if isinstance(node, ast.stmt):
        end = min(end, source.line_end(source.line_of(start)))
    return start, end


def _placements(source: Source, bindings: list[tuple[ast.AST, Owner]],
                explain: Callable[[Owner], str]) -> list[tuple[int, int, str]]:
    placements = []
    for target, owner in bindings:
        start, end = source.node_span(target)
        placements.append((start, end, explain(owner)))
    return placements


def describe_placement(source: Source, owner: Owner) -> str:
    line = source.position(_span(source, owner.site)[0])[0] + 1
    what = f"{owner.kind.value} {owner.describe()}"
    if owner.placement is None:
        return f"{what}: created outside any strategy scope (line {line})"
    return f"{what}: created inside the {owner.placement.describe()} scope (line {line})"


# ------------------------------------------------------------------ fixes

MAX_FIX_PASSES = 10  # each pass applies the non-overlapping fixes, then re-analyses


def fixes_for(analysis: Analysis, diagnostic: Diagnostic) -> list[Fix]:
    """The validated fixes for one diagnostic, computed on demand (not on every keystroke).

    A fix is offered only if the file parsed, the edited text parses and keeps every token
    and comment, the diagnostic is gone after it, and no new diagnostic appears.
    """
    before = Counter(d.code for d in analysis.diagnostics)
    for fix in _candidate_fixes(analysis, diagnostic):  # alternatives, best first: a wrap only when no move holds
        if _fix_holds(analysis, diagnostic, fix, before):
            return [_preferred(fix)]
    return []


def validated_fixes(analysis: Analysis, checked: dict[frozenset[Edit], Analysis] | None = None) -> list[list[Fix]]:
    """``fixes_for`` of every diagnostic, in order, at the cost of about one re-analysis.

    The first candidate fix of each diagnostic is applied together with every other one it
    does not overlap, and the file re-analysed once: when the code is kept, exactly one
    diagnostic per fix is gone and nothing else changed, all of them hold. Only the fixes of
    a batch that failed are checked one at a time (with their alternatives), as ``fixes_for``
    does. ``checked`` collects the analysis of each batch that held, by its edits, for a
    caller that applies it.
    """
    found: list[list[Fix]] = [[] for _ in analysis.diagnostics]
    before = Counter(d.code for d in analysis.diagnostics)
    pending = {index: iter(_candidate_fixes(analysis, d)) for index, d in enumerate(analysis.diagnostics)}
    current = {index: fix for index, candidates in pending.items() if (fix := next(candidates, None)) is not None}
    while current:
        batch: dict[int, Fix] = {}
        taken: list[tuple[int, int]] = []
        for index, fix in current.items():  # diagnostic order: what overlaps waits for the next batch
            spans = [(edit.start, edit.end) for edit in fix.edits]
            if not _overlaps(spans, taken):
                batch[index] = fix
                taken.extend(spans)
        for index in batch:
            del current[index]
        if len(batch) > 1 and _batch_holds(analysis, batch, before, checked):
            for index, fix in batch.items():
                found[index] = [_preferred(fix)]
            continue
        for index, fix in batch.items():
            diagnostic = analysis.diagnostics[index]
            for candidate in (fix, *pending[index]):
                if _fix_holds(analysis, diagnostic, candidate, before):
                    found[index] = [_preferred(candidate)]
                    break
    return found


def _candidate_fixes(analysis: Analysis, diagnostic: Diagnostic) -> list[Fix]:
    if diagnostic.intent is None or analysis.tree is None or not analysis.parsed_cleanly:
        return []
    try:
        return fixes.candidate_fixes(diagnostic.intent, analysis.source, analysis.tree)
    except Exception:  # a fix builder bug must not take the diagnostics down with it
        log.exception("tfscope: building fixes for %s failed", diagnostic.code)
        return []


def _preferred(fix: Fix) -> Fix:
    return fix if fix.is_preferred else fix._replace(is_preferred=True)


def _overlaps(spans: list[tuple[int, int]], taken: list[tuple[int, int]]) -> bool:
    """Edits that share characters; touching ones and inserts at one point apply together, in order
    (several statements moved into one scope block keep their order)."""
    return any(start < taken_end and taken_start < end for start, end in spans for taken_start, taken_end in taken)


def _batch_holds(analysis: Analysis, batch: dict[int, Fix], before: Counter,
                 checked: dict[frozenset[Edit], Analysis] | None) -> bool:
    """Whether the fixes together keep the code and take away one diagnostic each, and nothing else changes."""
    edits = tuple(edit for fix in batch.values() for edit in fix.edits)
    after = _analyze_if_kept(analysis, Fix("batch", edits), len(batch))
    if after is None:
        return False
    expected = before - Counter(analysis.diagnostics[index].code for index in batch)
    holds = after.parsed_cleanly and Counter(d.code for d in after.diagnostics) == expected
    if holds and checked is not None:
        checked[frozenset(edits)] = after
    return holds


def _fix_holds(analysis: Analysis, diagnostic: Diagnostic, fix: Fix, before: Counter) -> bool:
    after = _analyze_if_kept(analysis, fix)
    if after is None or not after.parsed_cleanly:
        return False
    counts = Counter(d.code for d in after.diagnostics)
    if counts[diagnostic.code] >= before[diagnostic.code]:
        return False
    return all(counts[code] <= before[code] for code in counts)


def edited_source(source: Source, fix: Fix) -> Source:
    """The Source after applying ``fix`` (a notebook keeps its cells)."""
    if source.is_notebook:
        from tfscope.notebook import edited_source as edited_notebook

        return edited_notebook(source, fix.edits)
    return Source(text=fixes.apply_edits(source.text, fix.edits), path=source.path)


def noqa_fix(analysis: Analysis, diagnostic: Diagnostic) -> Fix | None:
    """"Ignore TFSxxx on this line", merged into an existing ``# noqa: ...``."""
    line = analysis.source.position(diagnostic.start)[0]
    return fixes.noqa_fix(analysis.source, diagnostic.code, line)


def fix_all(analysis: Analysis, unsafe: bool = False,
            checked: dict[frozenset[Edit], Analysis] | None = None) -> list[Fix]:
    """One validated fix per diagnostic, non-overlapping, safe only unless ``unsafe``
    (``checked``: see ``validated_fixes``)."""
    chosen: list[Fix] = []
    taken: list[tuple[int, int]] = []
    for validated in validated_fixes(analysis, checked):
        for fix in validated:
            if not fix.applicability.applies(unsafe):
                continue
            spans = [(edit.start, edit.end) for edit in fix.edits]
            if _overlaps(spans, taken):
                continue
            chosen.append(fix)
            taken.extend(spans)
            break
    return chosen


def fix_until_stable(
    analysis: Analysis, unsafe: bool = False, accept: Callable[[Analysis, Fix], bool] = lambda analysis, fix: True
) -> tuple[Analysis, int]:
    """Apply fixes pass after pass until none is left; the final analysis and how many applied.

    ``accept`` narrows which fixes may apply (the server's fix-all for one notebook cell).
    """
    fixed = 0
    for _ in range(MAX_FIX_PASSES):
        checked: dict[frozenset[Edit], Analysis] = {}
        chosen = [fix for fix in fix_all(analysis, unsafe, checked) if accept(analysis, fix)]
        if not chosen:
            break
        edits = tuple(edit for fix in chosen for edit in fix.edits)
        combined = checked.get(frozenset(edits)) or _analyze_edited(analysis, Fix("fix all", edits))
        if analysis.parsed_cleanly and not combined.parsed_cleanly:
            # each fix was validated alone; if together they break the code, take one per pass
            chosen = chosen[:1]
            combined = _analyze_edited(analysis, chosen[0])
        analysis = combined
        fixed += len(chosen)
    return analysis, fixed


def _analyze_edited(analysis: Analysis, fix: Fix) -> Analysis:
    return analyze(edited_source(analysis.source, fix), analysis.settings, analysis.project)


def _analyze_if_kept(analysis: Analysis, fix: Fix, fixes_applied: int = 1) -> Analysis | None:
    """The analysis after ``fix`` (of ``fixes_applied`` fixes together), if it keeps every token and comment."""
    try:
        edited = edited_source(analysis.source, fix)
    except ValueError:  # edits across a notebook cell boundary
        return None
    parsed = fixes.parsed_if_preserved(analysis.source, edited.text, fix, fixes_applied)
    if parsed is None:
        return None
    return analyze(edited, analysis.settings, analysis.project, parse=functools.partial(_parsed_already, *parsed))


def _parsed_already(code: str, tree: ast.Module, asked: str) -> tuple[ast.Module, bool]:
    """The validation's tree of ``code`` (it parsed whole, so no line was neutralised), else a parse."""
    return (tree, False) if asked == code else parse_tolerant(asked)
