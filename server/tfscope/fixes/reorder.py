"""Fixes that move whole statements to another point of the same function: a strategy's creation
before the first TensorFlow operation (TFS014), out of the loop that repeats it (TFS011), an
object's creation or use into the other strategy's scope block (TFS008).

A move never crosses a statement it shares a name with, an opaque one or a notebook magic
(see ``deps``); the engine re-analyses every candidate before offering it.
"""

from __future__ import annotations

import ast

from tfscope.diagnostics import Applicability, Fix, JoinScopes, MoveBefore
from tfscope.fixes.deps import DependencyIndex, Effects, conflicts
from tfscope.fixes.edits import (
    LineBlock,
    delete_block,
    indentation,
    insert_after_line,
    insert_before_line,
    join_lines,
    line_breaks,
    reindented_lines,
    statement_block,
    verbatim_lines,
)
from tfscope.fixes.move import (
    PathStep,
    header_end_line,
    holds_magic,
    is_plain_scope_header,
    statement_lists,
    statement_path,
)
from tfscope.source import Source

MOVE_TO_START_TITLE = "Move the strategy's creation before the first TensorFlow operation"
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)  # their bodies run later


def move_into_use_title(name: str) -> str:
    return f"Create it in the `with {name}.scope():` block that uses it"


def move_use_title(name: str) -> str:
    return f"Use it in the `with {name}.scope():` block that creates it"


def path_to_node(tree: ast.AST, node: ast.AST) -> list[PathStep] | None:
    """The statement lists from the module down to the innermost statement holding ``node``."""
    path: list[PathStep] = []
    holder: ast.AST = tree
    while True:
        step = next(
            (
                step
                for step in _child_steps(holder)
                if step.node.lineno <= node.lineno <= (step.node.end_lineno or step.node.lineno)
                and any(inner is node for inner in ast.walk(step.node))
            ),
            None,
        )
        if step is None:
            return path or None
        path.append(step)
        if step.node is node:
            return path
        holder = step.node


def _child_steps(node: ast.AST):
    for statements in statement_lists(node):
        for index in range(len(statements)):
            yield PathStep(statements, index)


# --- TFS014: the strategy first -----------------------------------------------------------------


def move_before(intent: MoveBefore, source: Source, tree: ast.Module) -> list[Fix]:
    path = _assignment_path(tree, intent.creation)
    first_path = path_to_node(tree, intent.first)
    if path is None or first_path is None:
        return []
    step = path[-1]
    statement = step.node
    first = next((s for s in first_path if s.statements is step.statements), None)
    if first is None or first.index >= step.index or isinstance(first.node, _DEFINITIONS):
        return []
    dependencies = DependencyIndex(tree)
    between = step.statements[first.index : step.index]
    group = _needed_by(dependencies, statement, between)
    if any(member is first.node for member in group):
        return []  # the strategy needs what the first operation computes
    crossed = [other for other in between if all(other is not member for member in group)]
    moved = [*group, statement]
    crossed_effects = dependencies.effects(crossed)
    if crossed_effects.opaque or holds_magic(source, crossed) or holds_magic(source, moved):
        return []
    if _names_conflict(_named_effects(dependencies, moved), crossed_effects):
        return []
    blocks = [statement_block(source, statement) for statement in moved]
    target = statement_block(source, first.node)
    if target is None or any(block is None for block in blocks):
        return []
    text = "".join(_text_at(source, block, statement, target.indent) for block, statement in zip(blocks, moved))
    edits = [*(delete_block(source, block) for block in blocks), insert_before_line(source, target.first, text)]
    return [Fix(MOVE_TO_START_TITLE, tuple(edits), Applicability.SAFE, is_preferred=True)]


def _needed_by(dependencies: DependencyIndex, statement: ast.stmt, earlier: list[ast.stmt]) -> list[ast.stmt]:
    """The statements of ``earlier`` the statement needs: those binding what it reads, and the
    set-up calls given those names (`initialize_tpu_system(resolver)`), transitively."""
    needed_names = set(dependencies.effects([statement]).reads)
    group: list[ast.stmt] = []
    for candidate in reversed(earlier):
        effects = dependencies.effects([candidate])
        given = effects.reads - dependencies.module_names  # `tf` itself ties nothing together
        if effects.writes & needed_names or (_is_setup_call(candidate) and given & needed_names):
            group.insert(0, candidate)
            needed_names |= effects.reads
    return group


def _is_setup_call(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)


def _named_effects(dependencies: DependencyIndex, statements: list[ast.stmt]) -> Effects:
    """The names moved statements read and write; a set-up call in the group moves with what it
    configures, so its opacity is the group's own business."""
    effects = dependencies.effects(statements)
    effects.opaque = False
    return effects


def _names_conflict(moved: Effects, crossed: Effects) -> bool:
    return bool(moved.writes & (crossed.reads | crossed.writes) or moved.reads & crossed.writes)


# --- TFS008: one strategy's block ---------------------------------------------------------------


def join_scopes(intent: JoinScopes, source: Source, tree: ast.Module) -> list[Fix]:
    """The creation moved to the start of the block that uses it, else the use to the end of the
    block that creates it: only between two scope blocks of one statement list."""
    creation_path = statement_path(tree, intent.creation)
    use_path = path_to_node(tree, intent.use)
    if creation_path is None or use_path is None or len(creation_path) < 2 or len(use_path) < 2:
        return []
    creation_block, use_block = creation_path[-2], use_path[-2]
    if not (_is_body_of(creation_block, creation_path[-1], intent.creation_blocks)
            and _is_body_of(use_block, use_path[-1], intent.use_blocks)):
        return []
    if creation_block.statements is not use_block.statements or creation_block.index >= use_block.index:
        return []
    dependencies = DependencyIndex(tree)
    siblings = creation_block.statements
    between = siblings[creation_block.index + 1 : use_block.index]
    fixes = []
    creation, use = creation_path[-1], use_path[-1]
    crossed = [*creation.statements[creation.index + 1 :], *between]
    recreate = _move(source, dependencies, creation, creation_block.node, crossed, use_block.node, at_start=True,
                     title=move_into_use_title(_strategy_text(use_block.node)))
    if recreate is not None:
        fixes.append(recreate)
    crossed = [*between, *use.statements[: use.index]]
    move_use = _move(source, dependencies, use, use_block.node, crossed, creation_block.node, at_start=False,
                     title=move_use_title(_strategy_text(creation_block.node)))
    if move_use is not None:
        fixes.append(move_use)
    return fixes


def _is_body_of(block: PathStep, inner: PathStep, scope_blocks: tuple[ast.With, ...]) -> bool:
    return any(block.node is scope for scope in scope_blocks) and inner.statements is block.node.body


def _move(source: Source, dependencies: DependencyIndex, step: PathStep, holder: ast.With, crossed: list[ast.stmt],
          target: ast.With, at_start: bool, title: str) -> Fix | None:
    """``step``'s statement out of the block ``holder`` into ``target``; a block it leaves empty
    goes with it, when its header is a plain one-line `with S.scope():`."""
    crossed_effects = dependencies.effects(crossed)
    crossed_effects.merge(dependencies.scope_header_effects(target if at_start else holder))
    moved = dependencies.effects([step.node])
    if conflicts(moved, crossed_effects, crossed_any=True) or holds_magic(source, [*crossed, step.node]):
        return None
    block = statement_block(source, step.node)
    header_end = header_end_line(source, target)
    if block is None or header_end is None or target.body[0].lineno - 1 <= header_end:
        return None  # a one-line block has no body lines to move into
    removed = block
    if len(step.statements) < 2:
        if header_end_line(source, holder) != holder.lineno - 1 or not is_plain_scope_header(source, holder):
            return None
        removed = _with_blank_line_after(source, LineBlock(holder.lineno - 1, holder.end_lineno - 1,
                                                           indentation(source, holder.lineno - 1)))
    text = _text_at(source, block, step.node, indentation(source, target.body[0].lineno - 1))
    insert = (insert_before_line(source, header_end + 1, text) if at_start
              else insert_after_line(source, target.end_lineno - 1, text))
    return Fix(title, (delete_block(source, removed), insert), Applicability.UNSAFE)


def _with_blank_line_after(source: Source, block: LineBlock) -> LineBlock:
    """A block removed whole takes the blank line after it when one precedes it too."""
    before, after = block.first - 1, block.last + 1
    if (before >= 0 and after < source.line_count and not source.line_text(before).strip()
            and not source.line_text(after).strip() and source.cell_at(source.line_start(after)) is source.cell_at(
                source.line_start(block.first))):
        return LineBlock(block.first, after, block.indent)
    return block


def _strategy_text(block: ast.With) -> str:
    call = block.items[0].context_expr
    receiver = call.func.value if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) else call
    try:
        return ast.unparse(receiver)
    except Exception:  # a recovered tree
        return "strategy"


# --- Shared -------------------------------------------------------------------------------------


def _assignment_path(tree: ast.Module, creation: ast.AST) -> list[PathStep] | None:
    """The path to ``name = <creation>``; None when the creation sits in any other statement."""
    path = path_to_node(tree, creation)
    if path is None:
        return None
    statement = path[-1].node
    if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is creation:
        return path
    return None


def _text_at(source: Source, block: LineBlock, statement: ast.stmt, indent: str) -> str:
    lines = reindented_lines(source, block, indent, verbatim_lines(statement))
    return join_lines(lines, line_breaks(source, block))
