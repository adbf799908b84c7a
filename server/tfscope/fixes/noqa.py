"""``# noqa`` suppressions, the file-level ``# tfscope: noqa``, and the "Ignore on this line" fix.

Lines are 0-based. A diagnostic on a line that ends inside a multi-line string (or a
backslash continuation), where no comment can go, is suppressed by a ``# noqa`` on its
statement's first line, which is also where ``noqa_fix`` writes it.
"""

from __future__ import annotations

import re
import tokenize
from typing import Union

from tfscope.diagnostics import Applicability, Edit, Fix
from tfscope.fixes.edits import is_masked
from tfscope.fixes.tokens import code_tokens
from tfscope.source import Source

_NOQA = re.compile(r"#\s*noqa(?![\w-])(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE_EXEMPT = re.compile(r"#\s*tfscope\s*:\s*noqa(?![\w:-])(?!\s*:)", re.IGNORECASE)
_MULTI_LINE_TOKENS = frozenset(
    token_type for token_type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", None)) if token_type is not None
)


class AllCodes:
    """A blanket ``# noqa``: every code on the line is suppressed."""

    def __contains__(self, code: object) -> bool:
        return True

    def __repr__(self) -> str:
        return "ALL"


ALL = AllCodes()
Suppression = Union[frozenset, AllCodes]


def noqa_title(code: str) -> str:
    return f"Ignore {code} on this line"


def noqa_suppressions(source: Source) -> dict[int, Suppression]:
    """Line -> the codes its ``# noqa`` suppresses (``ALL`` for a blanket one)."""
    if "noqa" not in source.code.lower():
        return {}
    layout = _CommentLayout(source)
    suppressions = {line: _directive_codes(match) for line, (_, match) in layout.noqa_directives().items()}
    if suppressions:
        for line in layout.lines_without_comment_room():
            target = layout.noqa_line(line)
            if target in suppressions:
                suppressions[line] = suppressions[target]
    return suppressions


def is_suppressed(suppressions: dict[int, Suppression], line: int, code: str) -> bool:
    return code.upper() in suppressions.get(line, frozenset())


def file_is_exempt(source: Source) -> bool:
    """A comment line ``# tfscope: noqa`` turns every diagnostic of the file off."""
    if "tfscope" not in source.code.lower():
        return False
    layout = _CommentLayout(source)
    for line, (column, comment) in layout.comments().items():
        if not source.code[source.line_start(line) : source.line_start(line) + column].strip() and _FILE_EXEMPT.match(
            comment
        ):
            return True
    return False


def noqa_fix(source: Source, code: str, line: int) -> Fix | None:
    """"Ignore CODE on this line": append ``  # noqa: CODE`` or merge into the line's ``# noqa``.

    None when the line already suppresses the code, or no comment can be placed for it.
    """
    code = code.upper()
    layout = _CommentLayout(source)
    target = layout.noqa_line(line)
    if target is None or is_masked(source, target):
        return None
    line_start = source.line_start(target)
    existing = layout.noqa_directives().get(target)
    if existing is not None:
        column, match = existing
        codes = _directive_codes(match)
        if code in codes:
            return None
        offset = line_start + column + match.end("codes")
        edit = Edit(offset, offset, f", {code}")
    else:
        line_text = source.line_text(target)
        end_of_code = line_start + len(line_text.rstrip(" \t"))
        edit = Edit(end_of_code, source.line_end(target), f"  # noqa: {code}")
    return Fix(noqa_title(code), (edit,), Applicability.DISPLAY_ONLY)


def _directive_codes(match: re.Match) -> Suppression:
    codes = match.group("codes")
    if not codes:
        return ALL
    return frozenset(part.upper() for part in re.split(r"[\s,]+", codes) if part)


class _CommentLayout:
    """Where comments are and where one may go, from the tokens of the masked code."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.tokens = code_tokens(source.code)
        self._comments: dict[int, tuple[int, str]] | None = None

    def comments(self) -> dict[int, tuple[int, str]]:
        """Line -> (column, text) of its comment; lines past a tokenize error are scanned plainly."""
        if self._comments is None:
            comments = {
                token.start[0] - 1: (token.start[1], token.string)
                for token in self.tokens
                if token.type == tokenize.COMMENT
            }
            tokenized_lines = self.tokens[-1].end[0] if self.tokens else 0
            for line in range(tokenized_lines, self.source.line_count):
                column = _comment_column(self.source.code[self.source.line_start(line) : self.source.line_end(line)])
                if column is not None:
                    comments[line] = (column, self.source.code[self.source.line_start(line) + column : self.source.line_end(line)])
            self._comments = comments
        return self._comments

    def noqa_directives(self) -> dict[int, tuple[int, re.Match]]:
        """Line -> (column of its comment, the ``# noqa`` match inside that comment)."""
        directives = {}
        for line, (column, comment) in self.comments().items():
            match = _NOQA.search(comment)
            if match is not None:
                directives[line] = (column, match)
        return directives

    def lines_without_comment_room(self) -> set[int]:
        """Lines that end inside a string or continue with a backslash."""
        lines = set()
        for token in self.tokens:
            if token.type in _MULTI_LINE_TOKENS and token.end[0] > token.start[0]:
                lines.update(range(token.start[0] - 1, token.end[0] - 1))
        comments = self.comments()
        for line in range(self.source.line_count):
            end = self.source.line_end(line)
            if line not in comments and end > self.source.line_start(line) and self.source.code[end - 1] == "\\":
                lines.add(line)
        return lines

    def noqa_line(self, line: int) -> int | None:
        """Where a ``# noqa`` for a diagnostic on ``line`` goes: the line itself when a comment
        fits there, else its statement's first line, else the next line where one fits."""
        if not 0 <= line < self.source.line_count:
            return None
        blocked = self.lines_without_comment_room()
        if line not in blocked:
            return line
        first = self._statement_first_line(line)
        if first is not None and first not in blocked:
            return first
        return next((later for later in range(line + 1, self.source.line_count) if later not in blocked), None)

    def _statement_first_line(self, line: int) -> int | None:
        first = None
        for token in self.tokens:
            if token.type in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                continue
            if first is None:
                first = token.start[0] - 1
            if token.type == tokenize.NEWLINE:
                if first <= line <= token.start[0] - 1:
                    return first
                first = None
        return None


def _comment_column(code_line: str) -> int | None:
    """The ``#`` starting a comment in one line, skipping one-line string literals."""
    quote = None
    index = 0
    while index < len(code_line):
        char = code_line[index]
        if quote is None and char == "#":
            return index
        if char == "\\":
            index += 2
            continue
        if quote is None and char in "'\"":
            quote = char
        elif char == quote:
            quote = None
        index += 1
    return None
