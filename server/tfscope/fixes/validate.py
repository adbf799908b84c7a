"""Validation of a fixed text: it parses and keeps every token and comment of the original.

The unit compared is a *logical line*: its tokens (comments included), ignoring layout.
Fixes move whole logical lines and re-indent them, so the multiset of logical lines must be
unchanged, except that one ``with NAME.scope():`` header may appear (a wrap) or disappear
(a dedent). Dropping or corrupting any character of a token or comment changes a unit.

A rewrite (``strategy.run(step, args=(x,))`` for ``step(x)``) names the tokens it adds and
removes; then the multiset of all tokens and comments must change by exactly those.

Only the top-level statements that differ between the texts are tokenized (``tokenize`` is pure
Python and costs more than the re-analysis): the tokenizer starts afresh where a top-level
statement starts a line after the previous one ended, so the logical lines of a text are the
sum of those of its pieces, and a piece found in both texts keeps its tokens by being the same
text. When a differing piece does not tokenize on its own, the whole texts are compared.
"""

from __future__ import annotations

import ast
import functools
import io
import itertools
import re
import tokenize
from collections import Counter
from collections.abc import Iterable

from tfscope.diagnostics import Fix
from tfscope.fixes.tokens import code_tokens, tokenizes_completely
from tfscope.source import Source

_LINES_WITH_BREAKS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # where the parser counts a new line
_LAYOUT_TOKENS = frozenset(
    {tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
)

LogicalLine = tuple[str, ...]


def preserves_code(before: Source, new_text: str, fix: Fix | None = None, fixes: int = 1) -> bool:
    """Whether ``new_text`` parses and holds every logical line of ``before``, or for a rewrite
    ``fix`` every token but the ones it removes and no new one but those it adds (module doc);
    ``fixes`` applied together may each add or remove their one scope header."""
    return parsed_if_preserved(before, new_text, fix, fixes) is not None


def parsed_if_preserved(before: Source, new_text: str, fix: Fix | None = None,
                        fixes: int = 1) -> tuple[str, ast.Module] | None:
    """``preserves_code``, with the masked code of ``new_text`` and its tree when it holds (the
    re-analysis need not parse it again)."""
    masked_lines = _masked_lines(before)
    new_code, new_magics = _masked_like(before, new_text, masked_lines)
    if new_magics != Counter(text for text, _ in masked_lines.values()):
        return None
    try:
        new_tree = ast.parse(new_code)
    except (SyntaxError, ValueError):
        return None
    if fix is not None and fix.rewrites:
        return (new_code, new_tree) if _rewrite_holds(before.code, new_code, fix) else None
    changed = _changed_logical_lines(before.code, new_code, new_tree)
    if changed is None or sum(changed.values()) > fixes or not all(is_scope_header(unit) for unit in changed):
        return None
    return new_code, new_tree


def _rewrite_holds(old_code: str, new_code: str, fix: Fix) -> bool:
    if not (tokenizes_completely(old_code) and tokenizes_completely(new_code)):
        return False
    if any(token.startswith("#") for token in fix.removed_tokens):
        return False  # a rewrite may drop code, never a comment
    old_tokens = _token_strings(old_code)
    removed = Counter(fix.removed_tokens)
    return not removed - old_tokens and _token_strings(new_code) == old_tokens - removed + Counter(fix.added_tokens)


def _changed_logical_lines(old_code: str, new_code: str, new_tree: ast.Module) -> Counter[LogicalLine] | None:
    """The logical lines one text has and the other has not (both ways), from the pieces that
    differ (module doc); None when they cannot be told (a text does not tokenize completely)."""
    old_pieces, new_pieces = Counter(_old_pieces(old_code)), Counter(_statement_pieces(new_code, new_tree))
    shared = old_pieces & new_pieces
    old_units, new_units = _units_of(old_pieces - shared), _units_of(new_pieces - shared)
    if old_units is None or new_units is None:  # a piece that does not tokenize alone: compare the whole texts
        if not (tokenizes_completely(old_code) and tokenizes_completely(new_code)):
            return None
        old_units, new_units = logical_lines(old_code), logical_lines(new_code)
    return (old_units - new_units) + (new_units - old_units)


@functools.lru_cache(maxsize=8)  # the original's, once for all the fixes validated against it
def _old_pieces(code: str) -> tuple[str, ...]:
    try:
        return tuple(_statement_pieces(code, ast.parse(code)))
    except (SyntaxError, ValueError):
        return (code,)  # one piece: compared whole


def _statement_pieces(code: str, tree: ast.Module) -> list[str]:
    """``code`` cut before each top-level statement of ``tree`` that starts a line after the
    previous statement ended, unless the line before ends in a backslash (it may continue)."""
    line_starts = [0, *(match.end() for match in _LINE_BREAK.finditer(code))]
    cuts = [0]
    previous_end = None  # the 1-based last line of the statements so far
    for statement in tree.body:
        first = min(node.lineno for node in (statement, *getattr(statement, "decorator_list", ())))
        if previous_end is not None and first > previous_end:
            before_line = code[line_starts[first - 2] : line_starts[first - 1]].rstrip("\r\n")
            if not before_line.endswith("\\"):
                cuts.append(line_starts[first - 1])
        previous_end = max(previous_end or 0, statement.end_lineno or statement.lineno)
    cuts.append(len(code))
    return [code[start:end] for start, end in itertools.pairwise(cuts)]


def _units_of(pieces: Counter[str]) -> Counter[LogicalLine] | None:
    units: Counter[LogicalLine] = Counter()
    for piece, count in pieces.items():
        piece_units = _piece_units(piece)
        if piece_units is None:
            return None
        for unit, unit_count in piece_units.items():
            units[unit] += unit_count * count
    return units


@functools.lru_cache(maxsize=64)  # a file's pieces recur across the fixes validated against it
def _piece_units(piece: str) -> Counter[LogicalLine] | None:
    """``logical_lines`` of one piece, None when it does not tokenize completely (shared: do not change it)."""
    tokens = []
    try:
        tokens.extend(tokenize.generate_tokens(io.StringIO(piece, newline=None).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    if not tokens or tokens[-1].type != tokenize.ENDMARKER:
        return None
    return _logical_lines_of(tokens)


@functools.lru_cache(maxsize=8)  # the original's, once for all the fixes validated against it
def logical_lines(code: str) -> Counter[LogicalLine]:
    """Each logical line's token strings; a comment on a line of its own is a unit by itself
    (shared between callers: do not change it)."""
    return _logical_lines_of(code_tokens(code))


def _logical_lines_of(tokens: Iterable[tokenize.TokenInfo]) -> Counter[LogicalLine]:
    units: Counter[LogicalLine] = Counter()
    current: list[str] = []
    for token in tokens:
        if token.type == tokenize.COMMENT and not current:
            units[(token.string,)] += 1
        elif token.type == tokenize.NEWLINE:
            units[tuple(current)] += 1
            current = []
        elif token.type not in _LAYOUT_TOKENS:
            current.append(token.string)
    if current:
        units[tuple(current)] += 1
    return units


def _token_strings(code: str) -> Counter[str]:
    return Counter(token.string for token in code_tokens(code) if token.type not in _LAYOUT_TOKENS)


def is_scope_header(unit: LogicalLine) -> bool:
    """``with NAME(.NAME)*.scope():`` and nothing else: the only line a fix may add or remove."""
    if len(unit) < 7 or len(unit) % 2 == 0 or unit[0] != "with" or unit[-5:] != (".", "scope", "(", ")", ":"):
        return False
    dotted = unit[1:-5]
    names, dots = dotted[::2], dotted[1::2]
    return all(name.isidentifier() for name in names) and all(dot == "." for dot in dots)


def _masked_lines(source: Source) -> dict[int, tuple[str, str]]:
    """Notebook magic lines: line -> (text, masked code)."""
    if source.code == source.text:
        return {}
    return {
        line: (source.line_text(line), source.code[source.line_start(line) : source.line_end(line)])
        for line in range(source.line_count)
        if source.code[source.line_start(line) : source.line_end(line)] != source.line_text(line)
    }


def _masked_like(before: Source, new_text: str, masked_lines: dict[int, tuple[str, str]]) -> tuple[str, Counter]:
    """Mask the magic lines of ``new_text`` as ``before`` masked them; count the magics kept."""
    if not masked_lines:
        return new_text, Counter()
    masks = dict(masked_lines.values())
    kept: Counter = Counter()
    pieces = []
    for match in _LINES_WITH_BREAKS.finditer(new_text):
        line = match.group()
        content = line.rstrip("\r\n")
        if content in masks:
            kept[content] += 1
            line = masks[content] + line[len(content) :]
        pieces.append(line)
    return "".join(pieces), kept
