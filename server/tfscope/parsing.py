"""Parse what still parses: half-typed code must not hide findings above it."""

from __future__ import annotations

import ast
import re
import warnings
from contextvars import ContextVar
from dataclasses import dataclass, field

MAX_REPAIRS = 12
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")  # lines as the tokenizer ends them
_SURROGATE = re.compile("[\ud800-\udfff]")
# Three UTF-8 bytes, like a surrogate written with "surrogatepass": ast byte columns stay right.
SURROGATE_STAND_IN = "\ufffd"
BYTE_ORDER_MARK = "\ufeff"
_INDENTATION = " \t\f"  # what the tokenizer takes as indentation (not U+2028, not \x1c...)
SKIPPED_NAME = "__tfscope_too_deep__"  # stands for an expression left out of the analysis


class NotAnalysable(Exception):
    """Python's own parser gives up on the text (nesting beyond its stacks)."""


@dataclass
class Pruning:
    """Asked for by ``engine.analyze`` after the analysis ran out of stack: cut the tree at
    ``depth`` levels; ``skipped`` collects the stand-ins, which keep the positions of what they
    replace."""

    depth: int
    skipped: list[ast.AST] = field(default_factory=list)


PRUNING: ContextVar[Pruning | None] = ContextVar("tfscope_pruning", default=None)


def parse_tolerant(code: str) -> tuple[ast.Module, bool]:
    """The module tree and whether lines had to be neutralised to get it.

    Each failing line is replaced by an expression statement of the same length and
    indentation (so offsets and blocks stay put); after a few tries, everything from the
    first failing line on is dropped. Raises NotAnalysable when Python's parser runs out of
    memory or stack (nesting thousands deep).
    """
    shift = _first_line_shift(code)
    code = _parseable(code)
    tree, recovered = _parse_recovering(code)
    if shift:
        _shift_first_line(tree, shift)
    pruning = PRUNING.get()
    if pruning is not None:
        pruning.skipped.extend(prune_deeper_than(tree, pruning.depth))
    return tree, recovered


def split_lines(code: str) -> list[str]:
    """Lines with their breaks, split only at "\\r\\n", "\\r" and "\\n" (str.splitlines also splits
    at form feeds, U+2028 and others, which Python's tokenizer takes as ordinary characters)."""
    return _LINE.findall(code)


def _parseable(code: str) -> str:
    """The same lines: a leading byte order mark dropped (``ast.parse`` rejects it in
    a str), lone surrogates (which cannot be encoded for the parser) stood in for."""
    if code.startswith(BYTE_ORDER_MARK):
        code = code[1:]
    if not code.isascii() and _SURROGATE.search(code):  # the flag first: the search scans the whole text
        code = _SURROGATE.sub(SURROGATE_STAND_IN, code)
    return code


def _first_line_shift(code: str) -> int:
    """UTF-8 bytes that ``_parseable`` removes from the first line."""
    return len(BYTE_ORDER_MARK.encode("utf-8")) if code.startswith(BYTE_ORDER_MARK) else 0


def _shift_first_line(tree: ast.Module, shift: int) -> None:
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) == 1 and getattr(node, "col_offset", None) is not None:
            node.col_offset += shift
        if getattr(node, "end_lineno", None) == 1 and getattr(node, "end_col_offset", None) is not None:
            node.end_col_offset += shift


def _parse_recovering(code: str) -> tuple[ast.Module, bool]:
    lines: list[str] | None = None  # split only once a line needs repairing: most texts parse as they are
    first_error: int | None = None
    previous = None
    for _ in range(MAX_REPAIRS):
        try:
            return _parse(code if lines is None else "".join(lines)), first_error is not None
        except (SyntaxError, ValueError) as error:
            lines = split_lines(code) if lines is None else lines
            line, indentation_error = _culprit(error, len(lines))
            if line is None or (line, str(error)) == previous:
                break  # nothing to repair, or the last repair changed nothing
            previous = (line, str(error))
            first_error = line if first_error is None else min(first_error, line)
            _repair(lines, line, indentation_error)
    cut = first_error or 0
    kept = lines[:cut] + [_blank(line) for line in lines[cut:]]
    for end in _cuts(kept, cut):
        try:
            return _parse("".join(kept[:end] + [_blank(line) for line in kept[end:]])), True
        except (SyntaxError, ValueError):
            continue
    return ast.Module(body=[], type_ignores=[]), True


_HEADER_LINE = re.compile(r"expected an indented block after .* on line (\d+)$")
LINEAR_CUTS = 64  # last resort: this many content lines back one by one, then ever longer strides


def _culprit(error: Exception, line_count: int) -> tuple[int | None, bool]:
    """The 0-based line to repair and whether as an indentation error. An empty block is the
    fault of its header (Python reports it at the next code line, maybe thousands below)."""
    header = _HEADER_LINE.search(getattr(error, "msg", "") or "")
    if header and 0 < int(header.group(1)) <= line_count:
        return int(header.group(1)) - 1, False
    return _error_line(error, line_count), isinstance(error, IndentationError)


def _cuts(lines: list[str], cut: int) -> list[int]:
    """Where to try cutting the file, from ``cut`` back to 0: only before a line with content
    (blanking a blank line changes nothing), so the parses stay few on any file."""
    content = [end for end in range(cut - 1, 0, -1) if lines[end].strip(_INDENTATION + "\r\n")]
    chosen = content[:LINEAR_CUTS]
    index, stride = LINEAR_CUTS, 2
    while index < len(content):
        chosen.append(content[index])
        index, stride = index + stride, stride * 2
    return [cut, *chosen, 0]


def _parse(code: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escape sequences in the user's strings
        try:
            return ast.parse(code)
        except (MemoryError, RecursionError) as error:
            # the parser's stack, not ours: no line to repair, so the file cannot be analysed
            raise NotAnalysable(f"Python's parser ran out of {_resource(error)} (nesting too deep)") from None


def _resource(error: BaseException) -> str:
    return "memory" if isinstance(error, MemoryError) else "stack"


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
    return len(line.expandtabs()) - len(line.expandtabs().lstrip(_INDENTATION))


def _code_of(line: str) -> str:
    return line.split("#", 1)[0].rstrip()


def _spaces(line: str) -> str:
    """A whitespace-only line of the same length: blank to the tokenizer, offsets kept."""
    body = line.rstrip("\r\n")
    return " " * len(body) + line[len(body):]


def _neutralised(line: str) -> str:
    body = line.rstrip("\r\n")
    ending = line[len(body):]
    indent = body[: len(body) - len(body.lstrip(_INDENTATION))]
    rest = len(body) - len(indent)
    if rest == 0:
        return line
    return indent + "0" + " " * (rest - 1) + ending


def _blank(line: str) -> str:
    return line[len(line.rstrip("\r\n")):]


# ---------------------------------------------------------------- code too deep to analyse


def prune_deeper_than(tree: ast.Module, depth: int) -> list[ast.AST]:
    """Replace what lies ``depth`` levels down (and would go deeper) by a stand-in at its place:
    a name for an expression, ``...`` for a statement, ``_`` for a match pattern; the stand-ins.

    The walk keeps its own stack: this runs because the recursive analysis did not fit in Python's.
    """
    heights = _heights(tree)
    stand_ins: list[ast.AST] = []
    pending = [(tree, 0)]
    while pending:
        node, level = pending.pop()
        for name, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for index, child in enumerate(children):
                if not isinstance(child, ast.AST) or level + 1 + heights.get(id(child), 1) <= depth:
                    continue
                stand_in = _stand_in(child) if level + 1 >= depth else None
                if stand_in is None:
                    pending.append((child, level + 1))
                    continue
                stand_ins.append(stand_in)
                if isinstance(value, list):
                    value[index] = stand_in
                else:
                    setattr(node, name, stand_in)
    return stand_ins


def _heights(tree: ast.AST) -> dict[int, int]:
    """Levels below each node (1 for a leaf), by node id, without recursion."""
    heights: dict[int, int] = {}
    pending: list[tuple[ast.AST, bool]] = [(tree, False)]
    while pending:
        node, children_done = pending.pop()
        if children_done:
            heights[id(node)] = 1 + max((heights[id(child)] for child in ast.iter_child_nodes(node)), default=0)
        else:
            pending.append((node, True))
            pending.extend((child, False) for child in ast.iter_child_nodes(node))
    return heights


def _stand_in(node: ast.AST) -> ast.AST | None:
    """What replaces ``node``, or None to look further down (keywords, arguments, handlers...)."""
    if isinstance(node, ast.expr) and not isinstance(node, ast.FormattedValue):
        stand_in = ast.Name(id=SKIPPED_NAME, ctx=getattr(node, "ctx", None) or ast.Load())
    elif isinstance(node, ast.stmt):
        stand_in = ast.Expr(value=ast.copy_location(ast.Constant(value=...), node))
    elif isinstance(node, ast.pattern):
        stand_in = ast.MatchAs()
    else:
        return None
    return ast.copy_location(stand_in, node)
