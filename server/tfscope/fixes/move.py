"""Fix intents to concrete edits: move into a scope block, wrap in a new one, move out of one.

Every candidate is unvalidated: the engine applies it, checks ``preserves_code`` and
re-analyses before offering it. Also the statement paths the other movers share.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Iterator

from tfscope.diagnostics import (
    Applicability,
    Edit,
    Fix,
    MoveOutOfScope,
    PlaceInScope,
)
from tfscope.fixes.deps import DependencyIndex, Effects, conflicts
from tfscope.fixes.edits import (
    LineBlock,
    delete_block,
    indent_unit,
    indentation,
    insert_after_line,
    insert_before_line,
    is_masked,
    join_lines,
    line_breaks,
    newline_of,
    reindented_lines,
    statement_block,
    verbatim_lines,
)
from tfscope.source import Source

MOVE_OUT_TITLE = "Move out of the scope"


def move_into_title(strategy_name: str) -> str:
    return f"Move into `with {strategy_name}.scope():`"


def wrap_title(strategy_name: str) -> str:
    return f"Wrap in `with {strategy_name}.scope():`"


@dataclass(frozen=True)
class PathStep:
    """One level of the statement lists leading to a statement: ``statements[index]``."""

    statements: list[ast.stmt]
    index: int

    @property
    def node(self) -> ast.stmt:
        return self.statements[self.index]


def statement_path(tree: ast.AST, target: ast.stmt) -> list[PathStep] | None:
    """The statement lists from the module down to ``target`` (outermost first)."""
    for statements in statement_lists(tree):
        for index, statement in enumerate(statements):
            step = PathStep(statements, index)
            if statement is target:
                return [step]
            if statement.lineno <= target.lineno <= (statement.end_lineno or statement.lineno):
                inner = statement_path(statement, target)
                if inner is not None:
                    return [step, *inner]
    return None


def statement_lists(node: ast.AST) -> Iterator[list[ast.stmt]]:
    for _, value in ast.iter_fields(node):
        if not isinstance(value, list) or not value:
            continue
        if isinstance(value[0], ast.stmt):
            yield value
        elif isinstance(value[0], (ast.excepthandler, ast.match_case)):
            for holder in value:
                yield from statement_lists(holder)


# --- Place in scope -------------------------------------------------------------------


def place_in_scope(intent: PlaceInScope, source: Source, tree: ast.Module) -> list[Fix]:
    """The move into the nearest scope block it can reach, then the wrap."""
    path = statement_path(tree, intent.statement)
    block = statement_block(source, intent.statement)
    if path is None or block is None:
        return []
    dependencies = DependencyIndex.of(tree)
    siblings = path[-1]
    targets = sorted(
        (
            scope
            for scope in intent.scope_blocks
            if scope is not intent.statement and any(scope is node for node in siblings.statements)
        ),
        key=lambda scope: abs(_index_of(siblings.statements, scope) - siblings.index),
    )
    move = next(
        (fix for scope in targets if (fix := _move_into(intent, source, dependencies, siblings, block, scope))),
        None,
    )
    fixes = [move] if move is not None else []
    wrap = _wrap(intent, source, path, block)
    if wrap is not None:
        fixes.append(wrap)
    return [Fix(fix.title, fix.edits, fix.applicability, is_preferred=position == 0) for position, fix in enumerate(fixes)]


def _move_into(
    intent: PlaceInScope,
    source: Source,
    dependencies: DependencyIndex,
    siblings: PathStep,
    block: LineBlock,
    scope: ast.With,
) -> Fix | None:
    header_end = header_end_line(source, scope)
    if header_end is None or scope.body[0].lineno - 1 <= header_end:
        return None  # a one-line block has no body lines to move into
    scope_index = _index_of(siblings.statements, scope)
    moved = dependencies.effects([intent.statement])
    if siblings.index < scope_index:
        crossed_statements = siblings.statements[siblings.index + 1 : scope_index]
        crossed = dependencies.effects(crossed_statements)
        crossed.merge(dependencies.scope_header_effects(scope))
        if conflicts(moved, crossed, crossed_any=True) or holds_magic(source, crossed_statements):
            return None
        insert = insert_before_line(source, header_end + 1, _moved_text(source, block, intent.statement, scope))
    else:
        crossed_statements = siblings.statements[scope_index + 1 : siblings.index]
        crossed = dependencies.effects(crossed_statements)
        if conflicts(moved, crossed, crossed_any=bool(crossed_statements)) or holds_magic(source, crossed_statements):
            return None
        insert = insert_after_line(source, scope.end_lineno - 1, _moved_text(source, block, intent.statement, scope))
    return Fix(move_into_title(intent.strategy_name), (delete_block(source, block), insert), Applicability.SAFE)


def _moved_text(source: Source, block: LineBlock, statement: ast.stmt, scope: ast.With) -> str:
    body_indent = indentation(source, scope.body[0].lineno - 1)
    lines = reindented_lines(source, block, body_indent, verbatim_lines(statement))
    return join_lines(lines, line_breaks(source, block))


def _wrap(intent: PlaceInScope, source: Source, path: list[PathStep], block: LineBlock) -> Fix | None:
    if intent.strategy_binding is not None and not _bound_before(path, intent.strategy_binding):
        return None
    newline = newline_of(source.text)
    header = f"{block.indent}with {intent.strategy_name}.scope():"
    lines = reindented_lines(source, block, block.indent + indent_unit(source), verbatim_lines(intent.statement))
    breaks = line_breaks(source, block)[:-1] + [""]
    new_text = header + newline + join_lines(lines, breaks)
    edit = Edit(source.line_start(block.first), source.line_end(block.last), new_text)
    return Fix(wrap_title(intent.strategy_name), (edit,), Applicability.SAFE)


def _bound_before(path: list[PathStep], binding: ast.stmt) -> bool:
    """Whether ``binding`` has run whenever the statement at the end of ``path`` runs.

    It must sit earlier in the same or an enclosing statement list (possibly nested in an
    earlier ``if``/``try``, never in a function body), or be a ``with``/``for`` enclosing it.
    """
    for depth, step in enumerate(path):
        if any(_executes(earlier, binding) for earlier in step.statements[: step.index]):
            return True
        enclosing_body = path[depth + 1].statements if depth + 1 < len(path) else None
        if step.node is binding and isinstance(binding, (ast.With, ast.For)) and enclosing_body is binding.body:
            return True
    return False


def _executes(statement: ast.stmt, target: ast.stmt) -> bool:
    """``target`` is ``statement`` or runs as part of it (not inside a def or class body)."""
    if statement is target:
        return True
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    return any(_executes(child, target) for statements in statement_lists(statement) for child in statements)


# --- Move out of scope -----------------------------------------------------------------


def move_out_of_scope(intent: MoveOutOfScope, source: Source, tree: ast.Module) -> list[Fix]:
    scope, statement = intent.scope_block, intent.statement
    path = statement_path(tree, statement)
    if path is None:
        return []
    step = path[-1]
    if step.statements is not scope.body:
        return []
    block = statement_block(source, statement)
    scope_block = statement_block(source, scope)
    if block is None or scope_block is None:
        return []
    edits = (
        _dedent_scope(source, scope, block)
        if len(scope.body) == 1
        else _move_beside_scope(source, DependencyIndex.of(tree), scope, scope_block, step, block)
    )
    return [Fix(MOVE_OUT_TITLE, edits, Applicability.UNSAFE, is_preferred=True)] if edits else []


def _move_beside_scope(
    source: Source,
    dependencies: DependencyIndex,
    scope: ast.With,
    scope_block: LineBlock,
    step: PathStep,
    block: LineBlock,
) -> tuple[Edit, ...] | None:
    """Before the ``with`` when nothing earlier in it feeds the statement, else after it."""
    moved = dependencies.effects([step.node])
    lines = reindented_lines(source, block, scope_block.indent, verbatim_lines(step.node))
    text = join_lines(lines, line_breaks(source, block))
    earlier_statements = step.statements[: step.index]
    earlier: Effects = dependencies.effects(earlier_statements)
    earlier.merge(dependencies.scope_header_effects(scope))
    if not (conflicts(moved, earlier, crossed_any=True) or holds_magic(source, earlier_statements)):
        return delete_block(source, block), insert_before_line(source, scope_block.first, text)
    later = step.statements[step.index + 1 :]
    if not (conflicts(moved, dependencies.effects(later), crossed_any=bool(later)) or holds_magic(source, later)):
        return delete_block(source, block), insert_after_line(source, scope.end_lineno - 1, text)
    return None


def _dedent_scope(source: Source, scope: ast.With, block: LineBlock) -> tuple[Edit, ...] | None:
    """The scope holds only this statement: drop a plain one-line ``with S.scope():`` header."""
    header_line = scope.lineno - 1
    if header_end_line(source, scope) != header_line or not is_plain_scope_header(source, scope):
        return None
    last_line = scope.end_lineno - 1
    if any(is_masked(source, line) for line in range(header_line, last_line + 1)):
        return None
    body = LineBlock(header_line + 1, last_line, block.indent)
    lines = reindented_lines(source, body, indentation(source, header_line), verbatim_lines(scope))
    breaks = line_breaks(source, body)[:-1] + [""]
    return (Edit(source.line_start(header_line), source.line_end(last_line), join_lines(lines, breaks)),)


def is_plain_scope_header(source: Source, scope: ast.With) -> bool:
    if len(scope.items) != 1 or scope.items[0].optional_vars is not None:
        return False
    call = scope.items[0].context_expr
    if not (isinstance(call, ast.Call) and not call.args and not call.keywords):
        return False
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "scope" and _is_dotted_name(call.func.value)):
        return False
    header = source.code[source.line_start(scope.lineno - 1) : source.line_end(scope.lineno - 1)]
    return "#" not in header


def _is_dotted_name(node: ast.AST) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


# --- Shared ------------------------------------------------------------------------------


def header_end_line(source: Source, scope: ast.With) -> int | None:
    """The line of the ``:`` closing a (possibly parenthesised, multi-line) ``with`` header."""
    last_item = scope.items[-1]
    end_node = last_item.optional_vars or last_item.context_expr
    _, offset = source.node_span(end_node)
    code = source.code
    body_start = source.offset_from_ast(scope.body[0].lineno, scope.body[0].col_offset)
    while offset < body_start:
        char = code[offset]
        if char == ":":
            return source.line_of(offset)
        if char == "#":
            offset = source.line_end(source.line_of(offset))
        elif char in " \t\r\n\\),":
            offset += 1
        else:
            return None
    return None


def holds_magic(source: Source, statements: list[ast.stmt]) -> bool:
    """A notebook magic (masked to ``0``) may have any side effect: nothing moves across one."""
    return any(
        is_masked(source, line)
        for statement in statements
        for line in range(statement.lineno - 1, statement.end_lineno)
    )


def _index_of(statements: list[ast.stmt], node: ast.stmt) -> int:
    return next(index for index, statement in enumerate(statements) if statement is node)
