"""Helpers for the fix tests: real parsed snippets, statements picked by their source text."""

from __future__ import annotations

import ast
import textwrap

from tfscope import fixes
from tfscope.diagnostics import Fix
from tfscope.notebook import notebook_source
from tfscope.source import Source


def snippet(text: str, newline: str = "\n") -> tuple[Source, ast.Module]:
    source = Source(textwrap.dedent(text).lstrip("\n").replace("\n", newline))
    return source, ast.parse(source.code)


def notebook(*cells: str) -> tuple[Source, ast.Module]:
    source = notebook_source([(index, textwrap.dedent(cell).strip("\n"), None) for index, cell in enumerate(cells)])
    return source, ast.parse(source.code)


def statement(source: Source, tree: ast.Module, starts_with: str, nth: int = 0) -> ast.stmt:
    """The ``nth`` statement (any depth) whose source begins with ``starts_with``."""
    found = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.stmt)
        and source.text.startswith(starts_with, source.offset_from_ast(node.lineno, node.col_offset))
    ]
    found.sort(key=lambda node: (node.lineno, node.col_offset))
    return found[nth]


def applied(source: Source, fix: Fix) -> str:
    """The fixed text, which must parse and keep every token and comment."""
    new_text = fixes.apply_edits(source.text, fix.edits)
    assert fixes.preserves_code(source, new_text), new_text
    return new_text


def titles(candidates: list[Fix]) -> list[str]:
    return [fix.title for fix in candidates]


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")
