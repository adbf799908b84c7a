"""Incremental analysis of one open document: each version re-parses only what an edit touched.

A module is a sequence of top-level statements, and Python's grammar parses each on its own:
the tree of the whole text is the trees of its statements, each parsed where it stands. So
the parsed statements of the previous version are kept with their text; a new version reuses
those before the edit, and those after it when the edit kept the line count (their nodes then
hold the right lines), and parses only the rest, as one piece placed at its own line. Text
that does not parse that way (an edit that opens a string, half-typed code) is parsed whole,
as ``engine.analyze`` does, so the tree is always the one ``parse_tolerant`` gives.

When the statements parsed afresh equal the ones they replace, positions included (a keystroke
in a comment, a blank line's spaces), the previous tree itself is returned, and the semantic
model built from it is reused: the model is a function of the tree, the Keras version, the
settings and the path, and of the project's modules only through look-ups, so a build that
looked nothing up in the project is reused for the same tree and inputs. Everything that reads
the text (the Keras version evidence, `noqa` comments, offsets, the rules' findings) runs again.

Otherwise the interpreter runs the whole module: its objects are changed by later statements
(a model met in a scope, a strategy's alternatives) and by the functions run after the module
body, so a state kept at a statement could not be handed to a later version unchanged.
"""

from __future__ import annotations

import ast
import re
import threading
import warnings
from typing import NamedTuple

from tfscope.config import DEFAULT_SETTINGS, Settings
from tfscope.engine import Analysis, analyze, build_model
from tfscope.model.entities import SemanticModel
from tfscope.parsing import BYTE_ORDER_MARK, PRUNING, parse_tolerant
from tfscope.resolve.project import ProjectResolver, consults_project
from tfscope.source import Source

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # as ``Source`` counts lines


class Chunk(NamedTuple):
    """Top-level statements that start on line ``line`` (0-based), with the text up to the next ones."""

    text: str
    start: int  # offset of its first line in the code
    line: int
    statements: tuple[ast.stmt, ...]


class ParseStats(NamedTuple):
    """What the last parse did: for tests and benchmarks."""

    reused_chunks: int
    parsed_chars: int  # of the code, parsed afresh (all of it when it was parsed whole)
    same_tree: bool = False  # the previous tree was returned: the text changed outside the statements


class ChunkedParser:
    """``parse_tolerant`` that keeps the statements of the previous text it parsed cleanly."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._code: str | None = None
        self._tree: ast.Module | None = None
        self._chunks: list[Chunk] = []
        self.last = ParseStats(0, 0)

    def __call__(self, code: str) -> tuple[ast.Module, bool]:
        with self._lock:
            tree = self._reparsed(code) if self._can_reuse(code) else None
            if tree is not None:
                return tree, False
            tree, recovered = parse_tolerant(code)
            self.last = ParseStats(0, len(code))
            if not recovered and PRUNING.get() is None:
                self._remember(code, tree)
            # else the last clean version stays: the next one is likely clean again, and near it
            return tree, recovered

    def _can_reuse(self, code: str) -> bool:
        # a byte order mark shifts the first line's columns after parsing; pruning cuts the tree
        return bool(self._chunks) and PRUNING.get() is None and not code.startswith(BYTE_ORDER_MARK)

    def _reparsed(self, code: str) -> ast.Module | None:
        """The tree from the kept statements and the parsed rest, or None when the rest does not parse alone."""
        old_code, chunks = self._code, self._chunks
        growth = len(code) - len(old_code)
        before = 0  # chunks [0, before) are kept: the text up to them is unchanged
        while before < len(chunks) and code.startswith(chunks[before].text, chunks[before].start):
            before += 1
        before = max(min(before, len(chunks) - 1) - 1, 0)  # an edit right after a block may extend it
        start = chunks[before].start
        after = len(chunks)  # chunks [after, end) are kept: the text from them on is unchanged
        while after - 1 > before and _unchanged_at_line_start(code, chunks[after - 1], growth, start):
            after -= 1
        old_end = chunks[after].start if after < len(chunks) else len(old_code)
        end = old_end + growth
        if after < len(chunks) and _count_lines(code, start, end) != _count_lines(old_code, start, old_end):
            # the kept statements after the edit would hold wrong line numbers: parse them too
            after, end = len(chunks), len(code)
        middle = _parse_at(code[start:end], chunks[before].line)
        if middle is None:
            return None
        replaced = [s for chunk in chunks[before:after] for s in chunk.statements]
        if _same_statements(middle.body, replaced):
            tree = self._tree
        else:
            statements = [s for chunk in chunks[:before] for s in chunk.statements]
            statements += middle.body
            statements += [s for chunk in chunks[after:] for s in chunk.statements]
            tree = ast.Module(body=statements, type_ignores=[])
        self.last = ParseStats(before + len(chunks) - after, end - start, same_tree=tree is self._tree)
        regrouped = replaced if tree is self._tree else middle.body  # the statements the tree holds there
        self._code, self._tree = code, tree
        self._chunks = _rechunked(code, chunks, before, after, growth, regrouped) or _chunks(code, tree)
        return tree

    def _remember(self, code: str, tree: ast.Module) -> None:
        self._code, self._tree, self._chunks = code, tree, _chunks(code, tree)


def _same_statements(new: list[ast.stmt], old: list[ast.stmt]) -> bool:
    """Whether two runs of statements are equal, positions included (what ``ast.dump`` with
    attributes compares, several times faster); stops at the first difference (a line added
    above moves every statement after it). Its own stack: deep expressions parse fine."""
    pending: list[tuple[object, object]] = [(new, old)]
    while pending:
        a, b = pending.pop()
        if type(a) is not type(b):  # also tells 1 from True and 1.0
            return False
        if isinstance(a, ast.AST):
            if any(getattr(a, name, None) != getattr(b, name, None) for name in a._attributes):
                return False
            pending.extend((getattr(a, name, None), getattr(b, name, None)) for name in a._fields)
        elif isinstance(a, list):
            if len(a) != len(b):
                return False
            pending.extend(zip(a, b))
        elif a != b:
            return False
    return True


def _unchanged_at_line_start(code: str, chunk: Chunk, growth: int, floor: int) -> bool:
    """Whether ``chunk`` stands, moved by ``growth``, at the start of a line of ``code`` after ``floor``."""
    start = chunk.start + growth
    return start > floor and code[start - 1] in "\r\n" and code.startswith(chunk.text, start)


def _count_lines(code: str, start: int, end: int) -> int:
    """Line breaks in ``code[start:end]``, as the tokenizer counts them ("\\r\\n" is one)."""
    return code.count("\n", start, end) + code.count("\r", start, end) - code.count("\r\n", start, end)


def _parse_at(text: str, line: int) -> ast.Module | None:
    """``text`` parsed as if it began on 0-based ``line``, or None if it does not parse alone."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in the user's strings
        try:
            return ast.parse("\n" * line + text)
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return None


def _chunks(code: str, tree: ast.Module) -> list[Chunk]:
    """The statements grouped by the line they start on; each chunk's text runs to the next chunk."""
    groups = _grouped(tree.body)
    if not groups:
        return []
    groups[0] = (0, groups[0][1])  # the comments and blank lines above the first statement go with it
    source = Source(code)
    starts = [source.line_start(line) for line, _ in groups] + [len(code)]
    return [
        Chunk(code[starts[index] : starts[index + 1]], starts[index], line, tuple(statements))
        for index, (line, statements) in enumerate(groups)
    ]


def _grouped(statements: list[ast.stmt]) -> list[tuple[int, list[ast.stmt]]]:
    """(0-based first line, statements) per chunk: statements sharing a line share a chunk."""
    groups: list[tuple[int, list[ast.stmt]]] = []
    previous_end = -1
    for statement in statements:
        first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", ()))]) - 1
        if groups and first <= previous_end:  # `a = 1; b = 2`: one line, one chunk
            groups[-1][1].append(statement)
        else:
            groups.append((first, [statement]))
        previous_end = max(previous_end, (statement.end_lineno or statement.lineno) - 1)
    return groups


def _rechunked(code: str, chunks: list[Chunk], before: int, after: int, growth: int,
               statements: list[ast.stmt]) -> list[Chunk] | None:
    """What ``_chunks`` gives for the new code, from the old chunks: those before ``before`` stand,
    those from ``after`` on moved by ``growth`` (on the same lines), and only ``statements``, parsed
    in their place, are grouped anew. None when the edit moved where the first of them starts."""
    groups = _grouped(statements)
    base = chunks[before]
    if not groups or (before > 0 and groups[0][0] != base.line):
        return None  # the chunk before them would end elsewhere
    groups[0] = (base.line, groups[0][1])  # the first chunk of all starts at line 0, as ``_chunks`` has it
    end = chunks[after].start + growth if after < len(chunks) else len(code)
    starts = _line_starts(code, base.start, base.line, [line for line, _ in groups]) + [end]
    regrouped = [
        Chunk(code[starts[index] : starts[index + 1]], starts[index], line, tuple(group))
        for index, (line, group) in enumerate(groups)
    ]
    moved = [Chunk(c.text, c.start + growth, c.line, c.statements) for c in chunks[after:]] if growth else chunks[after:]
    return chunks[:before] + regrouped + moved


def _line_starts(code: str, offset: int, line: int, lines: list[int]) -> list[int]:
    """Offsets of the 0-based ``lines`` (ascending, none before ``line``), counting breaks from
    ``offset``, the start of ``line``: only the edited stretch is scanned, not the whole text."""
    starts = []
    breaks = _LINE_BREAK.finditer(code, offset)
    for wanted in lines:
        while line < wanted:
            found = next(breaks, None)
            if found is None:
                offset, line = len(code), wanted  # past the last line: clamped, as ``Source.line_start``
                break
            offset, line = found.end(), line + 1
        starts.append(offset)
    return starts


class IncrementalAnalyzer:
    """One per open document (or notebook): ``analyze`` each new version as ``engine.analyze``
    would, parsing only the top-level statements (of any cell) that the edit touched."""

    def __init__(self) -> None:
        self.parser = ChunkedParser()
        self._built: _Built | None = None
        self.reused_model = False  # whether the last analysis reused the previous model: for tests

    def analyze(self, source: Source, settings: Settings = DEFAULT_SETTINGS,
                project: ProjectResolver | None = None) -> Analysis:
        self.reused_model = False
        return analyze(source, settings, project, parse=self.parser, build=self._build)

    def _build(self, tree: ast.Module, keras_major: int, settings: Settings, path: str | None,
               project: ProjectResolver | None) -> tuple[SemanticModel, bool]:
        inputs = (keras_major, settings, path, project)
        built = self._built
        if built is not None and built.tree is tree and built.inputs == inputs:
            self.reused_model = True
            # what a build that looked nothing up would say now: whether jedi owes anyone an answer
            return built.model, project is not None and project.has_pending
        recorder = _LookupRecorder(project) if project is not None else None
        model, unresolved = build_model(tree, keras_major, settings, path, recorder)
        consulted = recorder is not None and recorder.consulted
        self._built = None if consulted else _Built(tree, inputs, model)
        return model, unresolved


class _Built(NamedTuple):
    """A model and everything it was built from (the tree by identity: it holds the tree's nodes)."""

    tree: ast.Module
    inputs: tuple
    model: SemanticModel


class _LookupRecorder:
    """The project as a model build sees it, noting whether an answer came from what jedi found
    (which changes as jedi answers and as the project's files change)."""

    def __init__(self, project: ProjectResolver) -> None:
        self._project = project
        self.consulted = False

    def lookup(self, importer: str | None, module: str, name: str):
        self.consulted = self.consulted or consults_project(importer, module)
        return self._project.lookup(importer, module, name)

    def reexported_library(self, importer: str | None, module: str, name: str) -> str | None:
        self.consulted = self.consulted or consults_project(importer, module)
        return self._project.reexported_library(importer, module, name)

    def definitions(self, tree: ast.Module, keras_version: int, interpret) -> dict[int, object]:
        return self._project.definitions(tree, keras_version, interpret)

    def uses_tensorflow_1_apis(self, path: str) -> bool:
        return self._project.uses_tensorflow_1_apis(path)

    @property
    def has_pending(self) -> bool:
        return self._project.has_pending
