"""Small ast helpers shared by the semantic model and the fixes."""

from __future__ import annotations

import ast
from collections import deque
from typing import Iterator


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
