"""Small ast helpers shared by the semantic model and the fixes."""

from __future__ import annotations

import ast
import functools
import weakref
from collections import deque
from typing import Callable, Iterator, TypeVar

_Answer = TypeVar("_Answer")


def per_node(function: Callable[[ast.AST], _Answer]) -> Callable[[ast.AST], _Answer]:
    """``function`` of a syntax node answered once for as long as the node lives: each build runs
    the same code again, and an edited file's old nodes take their answers with them."""
    answers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    @functools.wraps(function)
    def answered(node: ast.AST) -> _Answer:
        answer = answers.get(node, answers)
        if answer is answers:
            answer = answers[node] = function(node)
        return answer

    return answered


def assigned_name(statement: ast.stmt) -> str | None:
    """`NAME = ...`: the one plain name a single-target assignment binds, else None."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id
    return None


def dotted_name(node: ast.AST) -> str | None:
    """`a.b.c` for a plain attribute chain on a name, else None (cheaper than unparse)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def text_of(node: ast.AST) -> str:
    """The node's source text, or "" where a recovered tree cannot be unparsed."""
    dotted = dotted_name(node)  # what unparse gives for a name or attribute chain, for a fraction of its cost
    if dotted is not None:
        return dotted
    try:
        return ast.unparse(node)
    except Exception:  # unparse of a recovered tree can fail on odd nodes
        return ""


def arguments_by_parameter(call: ast.Call, positional: list[ast.arg], keyword_only: list[ast.arg]) -> dict[str, ast.expr]:
    """The expression ``call`` writes for each parameter it fills, by position (up to a `*args`,
    after which positions are unknown) or by keyword."""
    written = {}
    for parameter, argument in zip(positional, call.args):
        if isinstance(argument, ast.Starred):
            break
        written[parameter.arg] = argument
    names = {parameter.arg for parameter in (*positional, *keyword_only)}
    written.update((keyword.arg, keyword.value) for keyword in call.keywords if keyword.arg in names)
    return written


_STATEMENT_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


def walk_statements(tree: ast.AST) -> Iterator[ast.AST]:
    """``ast.walk`` in its order, but only through statements (and the handlers and cases that
    hold them): imports and definitions are statements, and expressions, most of a tree, hold none."""
    pending = deque([tree])
    while pending:
        node = pending.popleft()
        yield node
        for _, value in ast.iter_fields(node):
            if isinstance(value, list):
                pending.extend(item for item in value if isinstance(item, _STATEMENT_HOLDERS))


@functools.lru_cache(maxsize=65536)  # by the statement itself: a name's lookup reads every statement of a body
def names_bound_by(statement: ast.stmt) -> frozenset[str]:
    """What a module's or class body's statement other than a `def`/`class` may bind (`*` for a
    star import): its stored names and the definitions under it (`if`/`try` blocks)."""
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return frozenset((alias.asname or alias.name).split(".")[0] for alias in statement.names)
    return frozenset(node.id if isinstance(node, ast.Name) else node.name for node in ast.walk(statement)
                     if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
                     or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))
