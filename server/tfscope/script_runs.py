"""What the project's scripts do in a module they run: a trainer library whose strategy only the
training script makes is also checked as that script runs it.

Each script of the project that creates a strategy and imports the module
(``distribution.drivers_of``) is built once with the project's other modules run as its own code
(``DriverRun``), while none of the files it read changes. Its findings in the module, and the
module's statements it ran, are kept by their place in the text: a statement by its first line
(indentation included) and how many identical lines of statements come before it, a node by its
position inside its statement. An open buffer that differs from the saved file the script read
(lines typed above, a statement being edited) so matches wherever its text is the same, and a
statement whose text changed is the buffer's own analysis to judge.
"""

from __future__ import annotations

import ast
import functools
import os
import re
import weakref
from collections import Counter
from typing import Callable, NamedTuple

from tfscope.config import Settings
from tfscope.model.builder import DriverRun, ModelBuilder
from tfscope.model.entities import SemanticModel
from tfscope.resolve import distribution
from tfscope.resolve.project import ProjectResolver
from tfscope.rules import Violation, all_rules
from tfscope.stamps import modified

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as the tokenizer counts lines


def add_evidence(model: SemanticModel, version, path: str | None, settings: Settings) -> None:
    """What the model's rules read besides the code: the Keras version's evidence and era, and the
    strategies the rest of the project creates."""
    model.keras_evidence = version.evidence
    model.legacy_optimizers = version.legacy_optimizers
    model.slots_in_current_strategy = version.slots_in_current_strategy
    model.unscaled_replica_losses = version.unscaled_replica_losses
    model.graph_mode = version.graph_mode
    model.project_strategies = functools.cache(functools.partial(distribution.strategies_created, path, settings))


class Places:
    """Where each statement and node of a tree stands in its text (see the module's docstring)."""

    def __init__(self, tree: ast.Module, code: str) -> None:
        lines = _LINE_BREAK.split(code)
        self._statement_of: dict[int, ast.stmt] = {}  # id of a node -> its innermost statement
        self._statement_place: dict[int, tuple] = {}  # id of a statement -> its place
        self._tree = weakref.ref(tree)  # a cached one must not keep its tree alive (see ``_PLACES``)
        self._by_place: dict[tuple, ast.AST] | None = None
        statements: list[ast.stmt] = []
        pending: list[tuple[ast.AST, ast.stmt | None]] = [(tree, None)]
        while pending:  # one pass: each node belongs to the innermost statement above it
            node, statement = pending.pop()
            if isinstance(node, ast.stmt):
                statement = node
                statements.append(node)
            if statement is not None:
                self._statement_of[id(node)] = statement
            pending.extend((child, statement) for child in ast.iter_child_nodes(node))
        seen: Counter = Counter()
        for statement in sorted(statements, key=lambda statement: (statement.lineno, statement.col_offset)):
            first = lines[statement.lineno - 1].rstrip() if statement.lineno <= len(lines) else ""
            seen[first] += 1
            self._statement_place[id(statement)] = (first, seen[first])

    def holds(self, node: ast.AST) -> bool:
        """Whether ``node`` is one of this tree's (while the tree lives no other node has its id)."""
        return id(node) in self._statement_of

    def statement(self, node: ast.AST) -> tuple | None:
        """The place of the statement that holds ``node`` (itself, for a statement)."""
        statement = self._statement_of.get(id(node))
        return self._statement_place[id(statement)] if statement is not None else None

    def of(self, node: ast.AST) -> tuple | None:
        statement = self._statement_of.get(id(node))
        if statement is None:
            return None
        return (self._statement_place[id(statement)], type(node).__name__,
                getattr(node, "lineno", 0) - statement.lineno, getattr(node, "col_offset", 0),
                (getattr(node, "end_lineno", 0) or 0) - statement.lineno, getattr(node, "end_col_offset", 0))

    def node_at(self, place: tuple) -> ast.AST | None:
        if self._by_place is None:
            self._by_place = {}
            for node in ast.walk(self._tree()):
                found = self.of(node)
                if found is not None:
                    self._by_place.setdefault(found, node)
        return self._by_place.get(place)


class SeenFinding(NamedTuple):
    """A finding a script's run puts in another module, by place (see ``Places``)."""

    code: str
    message: str
    place: tuple
    related: tuple[tuple[tuple, str], ...]


class ScriptRun(NamedTuple):
    """What one script of the project does in the analysed module when it runs it."""

    shown: str  # the script's path in the project
    findings: list[SeenFinding]
    executed: frozenset[tuple]  # the places of the module's statements the run ran


class _Run(NamedTuple):
    findings: dict[str, list[SeenFinding]]  # by module path
    executed: dict[str, frozenset[tuple]]  # by module path: see ``ScriptRun.executed``


# (script, its mtime, Keras version, settings) -> (its run, mtimes of what was read)
_RUNS: dict[tuple, tuple[_Run, dict[str, int]]] = {}
_RUNS_KEPT = 64


def runs_of(path: str, settings: Settings, project: ProjectResolver, version) -> tuple[list[ScriptRun], bool]:
    """(what each script of the project that creates a strategy and imports the module at ``path``
    does in it, whether jedi still owes answers)."""
    here = os.path.abspath(path)
    runs: list[ScriptRun] = []
    unresolved = False
    for script, shown in distribution.drivers_of(path, settings):
        run, script_unresolved = _run(script, version, settings, project)
        unresolved = unresolved or script_unresolved
        if here in run.executed:
            runs.append(ScriptRun(shown, run.findings.get(here, []), run.executed[here]))
    return runs, unresolved


def seen_by_scripts(runs: list[ScriptRun], places: Places) -> dict[str, list[Violation]]:
    """By rule code: what the scripts' runs break in this module, said as when it happens. No fix:
    the script's names are not this code's."""
    seen: dict[str, list[Violation]] = {}
    for run in runs:
        for finding in run.findings:
            node = places.node_at(finding.place)
            if node is None:
                continue  # its statement is being edited: the buffer's own analysis judges it
            related = tuple((related_node, text) for place, text in finding.related
                            if (related_node := places.node_at(place)) is not None)
            seen.setdefault(finding.code, []).append(Violation(
                node=node, message=f"When `{run.shown}` runs this code: {_lower_first(finding.message)}",
                related=related))
    return seen


def run_by_scripts(runs: list[ScriptRun], places: Places) -> Callable[[Violation], bool]:
    """Whether the statements of a finding (where it is, and its related places) all ran in the
    scripts' runs: their callers are then known, and what those break there is theirs to report.
    A finding of the file's own analysis there (made with its parameters unknown: a combination
    of them no caller passes) gives way; one that involves code no script reaches (another
    branch, a method nobody calls) stands."""
    executed = frozenset().union(*(run.executed for run in runs))
    if not executed:
        return lambda violation: False

    def ran(node: ast.AST | None) -> bool:
        return node is not None and places.statement(node) in executed

    return lambda violation: ran(violation.node) and all(ran(node) for node, _ in violation.related)


def _run(path: str, version, settings: Settings, project: ProjectResolver) -> tuple[_Run, bool]:
    """(what the script at ``path`` does in each module, whether jedi still owes answers), the
    script run with the project's other modules as its own code; built once while none of those
    files changes."""
    key = (path, modified(path), version, repr(settings))
    cached = _RUNS.get(key)
    if cached is not None and all(modified(read) == mtime for read, mtime in cached[1].items()):
        return cached[0], False
    tree = project.module_tree(path)
    if tree is None:
        return _Run({}, {}), False
    run = DriverRun()
    builder = ModelBuilder(tree, version.major, settings, path=path, project=project, run=run)
    model = builder.build()
    add_evidence(model, version, path, settings)
    read = {module: modified(module) for module in run.trees}
    places = {module: _places_of(module, module_tree) for module, module_tree in run.trees.items()}

    def module_of(node: ast.AST) -> str | None:
        return next((module for module, found in places.items() if found.holds(node)), None)

    findings: dict[str, list[SeenFinding]] = {}
    for rule in all_rules():
        for violation in rule.check(model):
            module = module_of(violation.node)
            place = places[module].of(violation.node) if module is not None else None
            if place is None:
                continue  # the script's own lines: its own analysis reports them
            related = tuple((related_place, text) for node, text in violation.related
                            if node is not None and places[module].holds(node)
                            and (related_place := places[module].of(node)) is not None)
            findings.setdefault(module, []).append(SeenFinding(rule.code, violation.message, place, related))
    executed: dict[str, set[tuple]] = {}
    for statement in run.executed:
        module = module_of(statement)
        if module is not None:
            executed.setdefault(module, set()).add(places[module].statement(statement))
    script_run = _Run(findings, {module: frozenset(found) for module, found in executed.items()})
    if not builder.unresolved:
        if len(_RUNS) >= _RUNS_KEPT:
            _RUNS.pop(next(iter(_RUNS)))
        _RUNS[key] = (script_run, read)
    return script_run, builder.unresolved


# each tree the project read -> its places: every script's run reads the same trees (gone with the tree)
_PLACES: weakref.WeakKeyDictionary[ast.Module, Places] = weakref.WeakKeyDictionary()


def _places_of(module: str, tree: ast.Module) -> Places:
    places = _PLACES.get(tree)
    if places is None:
        places = _PLACES[tree] = Places(tree, _text(module))
    return places


def _text(path: str) -> str:
    """The module's text as the project's resolver parsed it (read again: it keeps only the tree)."""
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _lower_first(message: str) -> str:
    """"Model `m` is ..." continues a sentence as "model `m` is ..."."""
    return message[0].lower() + message[1:] if message[:2].istitle() else message
