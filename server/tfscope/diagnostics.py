"""What the engine reports: violations with locations, related locations and fixes.

All positions are code-point offsets into ``Source.text``. Adapters (CLI, LSP) convert them.
"""

from __future__ import annotations

import ast
import enum
from dataclasses import dataclass, field


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


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    new_text: str


@dataclass(frozen=True)
class Fix:
    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    is_preferred: bool = False


@dataclass(frozen=True)
class Related:
    start: int
    end: int
    message: str


@dataclass(frozen=True)
class PlaceInScope:
    """Fix intent: ``statement`` should run inside ``with <strategy_name>.scope():``.

    ``scope_blocks`` are existing scope blocks of that strategy a move may target;
    ``strategy_binding`` is the statement that binds the strategy name (None if it is a
    parameter or otherwise always visible), so a wrap is only offered after it.
    """

    statement: ast.stmt
    strategy_name: str
    scope_blocks: tuple[ast.With, ...] = ()
    strategy_binding: ast.stmt | None = None


@dataclass(frozen=True)
class MoveOutOfScope:
    """Fix intent: ``statement`` needs no scope; move it out of ``scope_block``."""

    statement: ast.stmt
    scope_block: ast.With


FixIntent = PlaceInScope | MoveOutOfScope


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
