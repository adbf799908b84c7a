"""Small ast helpers shared by the semantic model and the fixes."""

from __future__ import annotations

import ast


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
