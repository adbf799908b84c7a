"""Validation of a fixed text: it parses and keeps every token and comment of the original.

The unit compared is a *logical line*: its tokens (comments included), ignoring layout.
Fixes move whole logical lines and re-indent them, so the multiset of logical lines must be
unchanged, except that one ``with NAME.scope():`` header may appear (a wrap) or disappear
(a dedent). Dropping or corrupting any character of a token or comment changes a unit.

A rewrite (``strategy.run(step, args=(x,))`` for ``step(x)``) names the tokens it adds and
removes; then the multiset of all tokens and comments must change by exactly those.
"""

from __future__ import annotations

import ast
import functools
import re
import tokenize
from collections import Counter

from tfscope.diagnostics import Fix
from tfscope.fixes.tokens import code_tokens, tokenizes_completely
from tfscope.source import Source

_LINES_WITH_BREAKS = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")
_LAYOUT_TOKENS = frozenset(
    {tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.NL, tokenize.ENCODING, tokenize.ENDMARKER}
)

LogicalLine = tuple[str, ...]


def preserves_code(before: Source, new_text: str, fix: Fix | None = None, fixes: int = 1) -> bool:
    """Whether ``new_text`` parses and holds every logical line of ``before``, or for a rewrite
    ``fix`` every token but the ones it removes and no new one but those it adds (module doc);
    ``fixes`` applied together may each add or remove their one scope header."""
    masked_lines = _masked_lines(before)
    new_code, new_magics = _masked_like(before, new_text, masked_lines)
    if new_magics != Counter(text for text, _ in masked_lines.values()):
        return False
    try:
        ast.parse(new_code)
    except (SyntaxError, ValueError):
        return False
    if not (tokenizes_completely(before.code) and tokenizes_completely(new_code)):
        return False
    if fix is not None and fix.rewrites:
        if any(token.startswith("#") for token in fix.removed_tokens):
            return False  # a rewrite may drop code, never a comment
        old_tokens = _token_strings(before.code)
        removed = Counter(fix.removed_tokens)
        return not removed - old_tokens and _token_strings(new_code) == old_tokens - removed + Counter(fix.added_tokens)
    old_units, new_units = logical_lines(before.code), logical_lines(new_code)
    changed = (old_units - new_units) + (new_units - old_units)
    return sum(changed.values()) <= fixes and all(is_scope_header(unit) for unit in changed)


@functools.lru_cache(maxsize=8)  # the original's, once for all the fixes validated against it
def logical_lines(code: str) -> Counter[LogicalLine]:
    """Each logical line's token strings; a comment on a line of its own is a unit by itself
    (shared between callers: do not change it)."""
    units: Counter[LogicalLine] = Counter()
    current: list[str] = []
    for token in code_tokens(code):
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
