"""Text-level primitives shared by every fix: applying edits, statement line spans, re-indentation.

Lines are 0-based, offsets are code-point offsets into ``Source.text``. The ast comes from
``Source.code`` (magics masked to the same length), text is always copied from ``Source.text``.
"""

from __future__ import annotations

import ast
import functools
import io
import re
import tokenize
from typing import Iterable, NamedTuple, Sequence

from tfscope.diagnostics import Edit
from tfscope.source import Cell, Source

_FIRST_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_DEFAULT_INDENT_UNIT = "    "


def apply_edits(text: str, edits: Iterable[Edit]) -> str:
    """Apply non-overlapping edits (all offsets into ``text``); inserts at one point keep their order."""
    ordered = sorted(edits, key=lambda edit: (edit.start, edit.end))
    pieces: list[str] = []
    cursor = 0
    for edit in ordered:
        if not 0 <= edit.start <= edit.end <= len(text):
            raise ValueError(f"edit {edit} lies outside the text")
        if edit.start < cursor:
            raise ValueError(f"edit {edit} overlaps an earlier edit")
        pieces.append(text[cursor : edit.start])
        pieces.append(edit.new_text)
        cursor = edit.end
    pieces.append(text[cursor:])
    return "".join(pieces)


def newline_of(text: str) -> str:
    """The file's line ending: the first one it uses, ``\\n`` for a one-line file."""
    match = _FIRST_LINE_BREAK.search(text)
    return match.group() if match else "\n"


def indent_unit(source: Source) -> str:
    """One indentation level as the file writes it: its first indented block, else four spaces."""
    return _first_indent(source.code)


@functools.lru_cache(maxsize=8)  # once for all the fixes built for one text
def _first_indent(code: str) -> str:
    """Tokenized only up to the first indented block (up to the first tokenize error at worst)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(code, newline=None).readline):
            if token.type == tokenize.INDENT:
                return token.string
    except (tokenize.TokenError, SyntaxError):
        pass
    return _DEFAULT_INDENT_UNIT


def _code_line(source: Source, line: int) -> str:
    return source.code[source.line_start(line) : source.line_end(line)]


def indentation(source: Source, line: int) -> str:
    text = source.line_text(line)
    return text[: len(text) - len(text.lstrip(" \t"))]


def is_masked(source: Source, line: int) -> bool:
    """A notebook magic line: masked in ``code``, never to be touched by an edit."""
    return _code_line(source, line) != source.line_text(line)


def is_comment_line(source: Source, line: int) -> bool:
    return not is_masked(source, line) and source.line_text(line).lstrip(" \t").startswith("#")


class LineBlock(NamedTuple):
    """Whole lines ``first..last`` (inclusive) that a fix moves or rewrites as one piece."""

    first: int
    last: int
    indent: str  # the indentation of the statement the block holds


def statement_block(source: Source, statement: ast.stmt) -> LineBlock | None:
    """The statement's own lines, with decorators and the comment lines directly above it.

    None when the statement shares a line with other code (``a = 1; b = 2``, a one-line
    block, ``elif``), when a line of it is a masked magic, or when its end is continued.
    """
    first_node = min([statement, *getattr(statement, "decorator_list", ())], key=lambda node: node.lineno)
    first_line = first_node.lineno - 1
    start = source.offset_from_ast(first_node.lineno, first_node.col_offset)
    if first_node is not statement:
        start = _decorator_at_offset(source, start)
        if start is None:
            return None
    before = source.code[source.line_start(first_line) : start]
    if before.strip(" \t"):
        return None
    if source.code.startswith(("elif", "else"), source.offset_from_ast(statement.lineno, statement.col_offset)):
        return None
    _, end = source.node_span(statement)
    last_line = source.line_of(end)
    after = source.code[end : source.line_end(last_line)].strip(" \t")
    if after and not after.startswith("#"):
        return None
    while first_line > 0 and _is_leading_comment(source, first_line - 1, before):
        first_line -= 1
    if any(is_masked(source, line) for line in range(first_line, last_line + 1)):
        return None
    return LineBlock(first_line, last_line, before)


def _decorator_at_offset(source: Source, expression_start: int) -> int | None:
    """The offset of the ``@`` before a decorator expression (ast points past it)."""
    offset = expression_start - 1
    while offset >= 0 and source.code[offset] in " \t":
        offset -= 1
    return offset if offset >= 0 and source.code[offset] == "@" else None


def _is_leading_comment(source: Source, line: int, statement_indent: str) -> bool:
    return is_comment_line(source, line) and indentation(source, line) == statement_indent


def verbatim_lines(statement: ast.stmt) -> frozenset[int]:
    """Lines that start inside a multi-line string literal: their text is the string's value."""
    lines: set[int] = set()
    for node in ast.walk(statement):
        is_string = isinstance(node, ast.JoinedStr) or (
            isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes))
        )
        if is_string and node.end_lineno and node.end_lineno > node.lineno:
            lines.update(range(node.lineno, node.end_lineno))  # 0-based lines after the first
    return frozenset(lines)


def reindented_lines(
    source: Source, block: LineBlock, new_indent: str, verbatim: frozenset[int] = frozenset()
) -> list[str]:
    """The block's lines (without line breaks) moved from its indentation to ``new_indent``.

    Relative indentation survives; lines inside multi-line strings and continuation lines
    indented less than the statement are kept as they are (their indentation is not syntax).
    """
    result = []
    for line in range(block.first, block.last + 1):
        text = source.line_text(line)
        if line in verbatim:
            result.append(text)
        elif not text.strip():
            result.append("")
        elif text.startswith(block.indent):
            result.append(new_indent + text[len(block.indent) :])
        else:
            result.append(text)
    return result


def line_breaks(source: Source, block: LineBlock) -> list[str]:
    """The line break after each line of the block; the last one is the file's own."""
    breaks = [
        source.text[source.line_end(line) : source.line_start(line + 1)]
        for line in range(block.first, block.last)
    ]
    return breaks + [newline_of(source.text)]


def join_lines(lines: Sequence[str], breaks: Sequence[str]) -> str:
    return "".join(line + line_break for line, line_break in zip(lines, breaks))


def container_end(source: Source, offset: int) -> int:
    """End of the cell holding ``offset`` (the text's end outside notebooks)."""
    cell = source.cell_at(offset) if source.cells else None
    return cell.end if cell else len(source.text)


def delete_block(source: Source, block: LineBlock) -> Edit:
    """Remove the block's lines with their line breaks (a cell's own text keeps its last break)."""
    start = source.line_start(block.first)
    end = min(source.line_start(block.last + 1), container_end(source, start))
    return Edit(start, end, "")


def insert_before_line(source: Source, line: int, lines_text: str) -> Edit:
    """Insert whole lines (``lines_text`` ends with a line break) before ``line``."""
    offset = source.line_start(line)
    return Edit(offset, offset, lines_text)


def insert_after_line(source: Source, line: int, lines_text: str) -> Edit:
    """Insert whole lines after ``line``, adding a line break when ``line`` ends its cell or file."""
    following = source.line_start(line + 1)
    if line + 1 < source.line_count and following <= container_end(source, source.line_start(line)):
        return Edit(following, following, lines_text)
    offset = source.line_end(line)
    newline = newline_of(source.text)
    return Edit(offset, offset, newline + lines_text[: -len(newline)] if lines_text.endswith(newline) else newline + lines_text)


def edits_fit_cells(source: Source, edits: Iterable[Edit]) -> bool:
    """In a notebook every edit must lie inside one cell; the separators belong to none."""
    if not source.cells:
        return True
    return all(_cell_holding(source.cells, edit.start, edit.end) is not None for edit in edits)


def _cell_holding(cells: Sequence[Cell], start: int, end: int) -> Cell | None:
    for cell in cells:
        if cell.start <= start and end <= cell.end:
            return cell
    return None
