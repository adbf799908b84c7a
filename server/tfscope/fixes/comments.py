"""Where comments are and where one may go, from one regex pass over the masked code.

``tokenize`` costs as much as ``ast.parse`` and stops at the first error; suppressions are
read on every analysis, so they only need strings, comments, brackets and line breaks.
"""

from __future__ import annotations

import re

from tfscope.source import Source

_LEXEME = re.compile(
    r"""
    (?P<comment>\#[^\r\n]*)
    | (?P<string>(?<!\w)[rRbBuUfF]{0,2}(?:
        \"\"\"(?:\\.|[^\\])*?(?:\"\"\"|\Z)
        | \'\'\'(?:\\.|[^\\])*?(?:\'\'\'|\Z)
        | "(?:\\.|[^"\\\r\n])*(?:"|(?=[\r\n])|\Z)
        | '(?:\\.|[^'\\\r\n])*(?:'|(?=[\r\n])|\Z)))
    | (?P<open>[(\[{])
    | (?P<close>[)\]}])
    | (?P<continuation>\\(?:\r\n|\r|\n))
    | (?P<newline>\r\n|\r|\n)
    """,
    re.VERBOSE | re.DOTALL,
)


RECENT_LAYOUTS_KEPT = 8  # the server analyses a few documents at a time; the CLI one file per process
_RECENT_LAYOUTS: list[tuple[Source, CommentLayout]] = []


class CommentLayout:
    @classmethod
    def of(cls, source: Source) -> CommentLayout:
        """The layout of ``source``, made once for the few sources in use: an analysis reads it for
        its suppressions and unused directives, and a report once per finding (its noqa column)."""
        for known, layout in list(_RECENT_LAYOUTS):  # a copy: another thread may append meanwhile
            if known is source:  # a Source's text never changes after it is made
                return layout
        layout = cls(source)
        _RECENT_LAYOUTS.append((source, layout))
        del _RECENT_LAYOUTS[:-RECENT_LAYOUTS_KEPT]
        return layout

    def __init__(self, source: Source) -> None:
        self.source = source
        self.comments: dict[int, tuple[int, str]] = {}  # line -> (column, comment text)
        self.blocked: set[int] = set()  # lines that end inside a string or with a backslash
        self._statement_first_line: dict[int, int] = {}  # recorded for blocked lines
        depth, logical_start, at_statement_start = 0, 0, True
        line = 0  # counted along: every line break is in a newline, continuation or string lexeme
        for match in _LEXEME.finditer(source.code):
            kind = match.lastgroup
            if kind == "newline":
                at_statement_start = at_statement_start or depth == 0
                line += 1
                continue
            if kind == "comment":
                self.comments[line] = (match.start() - source.line_start(line), match.group())
                continue
            if at_statement_start:
                logical_start, at_statement_start = line, False
            if kind == "open":
                depth += 1
            elif kind == "close":
                depth = max(depth - 1, 0)
            else:
                text = match.group()
                breaks = 1 if kind == "continuation" else text.count("\n") + text.count("\r") - text.count("\r\n")
                last = line if kind == "continuation" else line + breaks - 1  # a string's last line is not blocked
                for blocked_line in range(line, last + 1):
                    self.blocked.add(blocked_line)
                    self._statement_first_line[blocked_line] = logical_start
                line += breaks

    def comment_room_line(self, line: int) -> int | None:
        """Where a comment about ``line`` can go: the line itself when it does not end inside a
        string or continue with a backslash, else its statement's first line, else the next
        line that can hold one."""
        if not 0 <= line < self.source.line_count:
            return None
        if line not in self.blocked:
            return line
        first = self._statement_first_line[line]
        if first not in self.blocked:
            return first
        return next((later for later in range(line + 1, self.source.line_count) if later not in self.blocked), None)
