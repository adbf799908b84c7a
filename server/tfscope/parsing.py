"""Parse what still parses: half-typed code must not hide findings above it."""

from __future__ import annotations

import ast
import warnings

MAX_REPAIRS = 12


def parse_tolerant(code: str) -> tuple[ast.Module, bool]:
    """The module tree and whether lines had to be neutralised to get it.

    Each failing line is replaced by an expression statement of the same length and
    indentation (so offsets and blocks stay put); after a few tries, everything from the
    first failing line on is dropped.
    """
    lines = code.splitlines(keepends=True)
    first_error: int | None = None
    for _ in range(MAX_REPAIRS):
        try:
            return _parse("".join(lines)), first_error is not None
        except (SyntaxError, ValueError) as error:
            line = _error_line(error, len(lines))
            if line is None:
                break
            first_error = line if first_error is None else min(first_error, line)
            _repair(lines, line, isinstance(error, IndentationError))
    cut = first_error or 0
    kept = lines[:cut] + [_blank(line) for line in lines[cut:]]
    for end in range(cut, -1, -1):
        try:
            return _parse("".join(kept[:end] + [_blank(line) for line in kept[end:]])), True
        except (SyntaxError, ValueError):
            continue
    return ast.Module(body=[], type_ignores=[]), True


def _parse(code: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in the user's strings
        return ast.parse(code)


def _error_line(error: Exception, line_count: int) -> int | None:
    lineno = getattr(error, "lineno", None)
    if not lineno or line_count == 0:
        return None
    return min(lineno, line_count) - 1


def _repair(lines: list[str], line: int, indentation_error: bool) -> None:
    """Neutralise the failing line; a broken block header takes its body along, and an
    unexpected indent blanks the whole over-indented run, so one mistake costs one repair."""
    if indentation_error:
        for index in _block(lines, line, include_first=True):
            lines[index] = _spaces(lines[index])
        return
    opens_block = _code_of(lines[line]).endswith(":")
    lines[line] = _neutralised(lines[line])
    if opens_block:
        for index in _block(lines, line, include_first=False):
            lines[index] = _spaces(lines[index])


def _block(lines: list[str], line: int, include_first: bool) -> list[int]:
    """The lines indented deeper than ``line``'s header (or as deep as ``line`` itself)."""
    depth = _indent(lines[line])
    deeper = (lambda width: width >= depth) if include_first else (lambda width: width > depth)
    block = [line] if include_first else []
    for index in range(line + 1, len(lines)):
        if lines[index].strip() and not deeper(_indent(lines[index])):
            break
        block.append(index)
    return block


def _indent(line: str) -> int:
    return len(line.expandtabs()) - len(line.expandtabs().lstrip())


def _code_of(line: str) -> str:
    return line.split("#", 1)[0].rstrip()


def _spaces(line: str) -> str:
    """A whitespace-only line of the same length: blank to the tokenizer, offsets kept."""
    body = line.rstrip("\r\n")
    return " " * len(body) + line[len(body):]


def _neutralised(line: str) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    indent = body[: len(body) - len(body.lstrip())]
    rest = len(body) - len(indent)
    if rest == 0:
        return line
    return indent + "0" + " " * (rest - 1) + ending


def _blank(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]
