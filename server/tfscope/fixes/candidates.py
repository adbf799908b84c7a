"""Fix intents to candidate fixes: one builder per intent, best candidate first, unvalidated."""

from __future__ import annotations

import ast
from typing import Callable

from tfscope.diagnostics import (
    AverageLossPerExample,
    CallDirectly,
    CallInstead,
    Fix,
    FixIntent,
    JoinScopes,
    MoveBefore,
    MoveOutOfScope,
    PlaceInScope,
    RunThroughStrategy,
)
from tfscope.fixes import move, reorder, rewrite
from tfscope.fixes.edits import edits_fit_cells
from tfscope.source import Source

_FIX_BUILDERS: dict[type, Callable[[FixIntent, Source, ast.Module], list[Fix]]] = {
    PlaceInScope: move.place_in_scope,
    MoveOutOfScope: move.move_out_of_scope,
    RunThroughStrategy: rewrite.run_through_strategy,
    CallDirectly: rewrite.call_directly,
    CallInstead: rewrite.call_instead,
    AverageLossPerExample: rewrite.average_loss_per_example,
    MoveBefore: reorder.move_before,
    JoinScopes: reorder.join_scopes,
}


def candidate_fixes(intent: FixIntent, source: Source, tree: ast.Module) -> list[Fix]:
    """Fixes for one intent, best first, unvalidated; the engine offers the first that validates.
    In a notebook every edit must stay inside one cell."""
    build = _FIX_BUILDERS.get(type(intent))
    if build is None:
        return []
    return [fix for fix in build(intent, source, tree) if edits_fit_cells(source, fix.edits)]
