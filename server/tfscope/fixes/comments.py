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


class CommentLayout:
    def __init__(self, source: Source) -> None:
        self.source = source
        self.comments: dict[int, tuple[int, str]] = {}  # line -> (column, comment text)
        self.blocked: set[int] = set()  # lines that end inside a string or with a backslash
        self._statement_first_line: dict[int, int] = {}  # recorded for blocked lines
        depth, logical_start, at_statement_start = 0, 0, True
        for match in _LEXEME.finditer(source.code):
            kind = match.lastgroup
            if kind == "newline":
                at_statement_start = at_statement_start or depth == 0
                continue
            line = source.line_of(match.start())
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
                last = line if kind == "continuation" else source.line_of(match.end()) - 1
                for blocked_line in range(line, last + 1):
                    self.blocked.add(blocked_line)
                    self._statement_first_line[blocked_line] = logical_start

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
