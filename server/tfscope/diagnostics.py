"""What the engine reports: violations with locations, related locations and fixes.

All positions are code-point offsets into ``Source.text``. Adapters (CLI, LSP) convert them.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field
from typing import NamedTuple


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"


class Applicability(str, enum.Enum):
    """ruff's meaning: safe fixes keep behaviour and are applied by fix-all; unsafe ones may not."""

    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"

    def applies(self, unsafe_fixes: bool) -> bool:
        """Whether fix-all (``--fix``, with ``--unsafe-fixes`` or not) applies a fix of this kind."""
        return self is Applicability.SAFE or (unsafe_fixes and self is Applicability.UNSAFE)


class Edit(NamedTuple):
    start: int
    end: int
    new_text: str


class Fix(NamedTuple):
    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    is_preferred: bool = False
    # a rewrite (not a move) names the tokens it adds and removes: validation checks exactly these changed
    added_tokens: tuple[str, ...] = ()
    removed_tokens: tuple[str, ...] = ()

    @property
    def rewrites(self) -> bool:
        return bool(self.added_tokens or self.removed_tokens)


class Related(NamedTuple):
    start: int
    end: int
    message: str


class PlaceInScope(NamedTuple):
    """Fix intent: ``statement`` should run inside ``with <strategy_name>.scope():``.

    ``scope_blocks`` are existing scope blocks of that strategy a move may target;
    ``strategy_binding`` is the statement that binds the strategy name (None if it is a
    parameter or otherwise always visible), so a wrap is only offered after it.
    """

    statement: ast.stmt
    strategy_name: str
    scope_blocks: tuple[ast.With, ...] = ()
    strategy_binding: ast.stmt | None = None


class MoveOutOfScope(NamedTuple):
    """Fix intent: ``statement`` needs no scope; move it out of ``scope_block``."""

    statement: ast.stmt
    scope_block: ast.With


class RunThroughStrategy(NamedTuple):
    """Fix intent: the direct call ``call`` of a step function should go through ``<name>.run``,
    ``name`` one of ``strategy_names`` (what the strategy goes by, most likely visible first)."""

    call: ast.Call
    strategy_names: tuple[str, ...]


class CallDirectly(NamedTuple):
    """Fix intent: ``run_call`` (``strategy.run(model.fit, args=...)``) should call its function itself."""

    run_call: ast.Call


class CallInstead(NamedTuple):
    """Fix intent: ``call`` (`self.step_functions(...)`) should call the function ``name`` instead."""

    call: ast.Call
    name: str


class AverageLossPerExample(NamedTuple):
    """Fix intent: the loss ``constructor`` should take ``reduction="none"`` and each of ``calls``
    (all in steps run by a strategy) be averaged with ``tf.nn.compute_average_loss``."""

    constructor: ast.Call
    calls: tuple[ast.Call, ...]


class MoveBefore(NamedTuple):
    """Fix intent: the assignment of ``creation`` (with the statements it needs) should run before
    the statement holding ``first``."""

    creation: ast.AST
    first: ast.AST


class JoinScopes(NamedTuple):
    """Fix intent: an object created by ``creation`` in a block of one strategy is used by ``use``
    in a block of another: move the creation into the use's block, or the use into the creation's."""

    creation: ast.stmt
    use: ast.AST
    creation_blocks: tuple[ast.With, ...]  # scope blocks of the strategy it is created under
    use_blocks: tuple[ast.With, ...]  # scope blocks of the strategy it is used with


# (fix intents are NamedTuples: immutable, and far cheaper than dataclasses to define at start-up)
FixIntent = (PlaceInScope | MoveOutOfScope | RunThroughStrategy | CallDirectly | CallInstead
             | AverageLossPerExample | MoveBefore | JoinScopes)


@dataclass(frozen=True)
class Diagnostic:
    code: str
    name: str
    message: str
    severity: Severity
    start: int
    end: int
    related: tuple[Related, ...] = ()
    unnecessary: bool = False
    explanation: str = ""  # the reasoning for this occurrence, shown on hover
    intent: FixIntent | None = field(default=None, compare=False, repr=False)
