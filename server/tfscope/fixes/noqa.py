"""``# noqa`` suppressions, the file-level ``# tfscope: noqa``, and the "Ignore on this line" fix.

Lines are 0-based. A diagnostic on a line that ends inside a multi-line string (or a
backslash continuation), where no comment can go, is suppressed by a ``# noqa`` on its
statement's first line, which is also where ``noqa_fix`` writes it.
"""

from __future__ import annotations

import re
from typing import NamedTuple, Union

from tfscope.diagnostics import Applicability, Edit, Fix
from tfscope.fixes.comments import CommentLayout
from tfscope.fixes.edits import is_masked
from tfscope.source import Source

_NOQA = re.compile(r"#\s*noqa(?![\w-])(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[\s,]+[A-Z]+[0-9]+)*))?", re.IGNORECASE)
_FILE_EXEMPT = re.compile(r"#\s*tfscope\s*:\s*noqa(?![\w:-])(?!\s*:)", re.IGNORECASE)


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
    layout = CommentLayout.of(source)
    suppressions = {line: _directive_codes(match) for line, (_, match) in _noqa_directives(layout).items()}
    if suppressions:
        for line in layout.blocked:
            target = layout.comment_room_line(line)
            if target in suppressions:
                suppressions[line] = suppressions[target]
    return suppressions


class NoqaDirective(NamedTuple):
    """One noqa comment: where it is, its codes, and the lines whose findings it suppresses."""

    start: int  # offsets of the directive in the text
    end: int
    codes: Suppression
    lines: frozenset


def noqa_directives(source: Source) -> list[NoqaDirective]:
    if "noqa" not in source.code.lower():
        return []
    layout = CommentLayout.of(source)
    directives = _noqa_directives(layout)
    covered: dict[int, set[int]] = {line: {line} for line in directives}
    for line in layout.blocked:
        target = layout.comment_room_line(line)
        if target in covered:
            covered[target].add(line)
    found = []
    for line, (column, match) in directives.items():
        comment_start = source.line_start(line) + column
        found.append(NoqaDirective(comment_start + match.start(), comment_start + match.end(),
                                   _directive_codes(match), frozenset(covered[line])))
    return found


def is_suppressed(suppressions: dict[int, Suppression], line: int, code: str) -> bool:
    return code.upper() in suppressions.get(line, frozenset())


def file_is_exempt(source: Source) -> bool:
    """A comment line ``# tfscope: noqa`` turns every diagnostic of the file off."""
    if "tfscope" not in source.code.lower():
        return False
    layout = CommentLayout.of(source)
    for line, (column, comment) in layout.comments.items():
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
    layout = CommentLayout.of(source)
    target = layout.comment_room_line(line)
    if target is None or is_masked(source, target):
        return None
    line_start = source.line_start(target)
    existing = _noqa_directives(layout).get(target)
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


def _noqa_directives(layout: CommentLayout) -> dict[int, tuple[int, re.Match]]:
    """Line -> (column of its comment, the ``# noqa`` match inside that comment)."""
    directives = {}
    for line, (column, comment) in layout.comments.items():
        match = _NOQA.search(comment)
        if match is not None:
            directives[line] = (column, match)
    return directives
