"""Facts: what the interpreter saw happen at one point of the program, not verdicts.

Rules decide from these (and from the entities) whether something is wrong.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from tfscope.model.entities import Owner, Strategy


@dataclass(frozen=True)
class NestedScopes:
    node: ast.AST  # the inner `s2.scope()` expression
    outer: Strategy
    inner: Strategy


@dataclass(frozen=True)
class StrategyRecreated:
    strategy: Strategy
    why: str


@dataclass(frozen=True)
class StepOutsideRun:
    node: ast.AST  # the call that runs the step directly, in the root
    strategy: Strategy
    what: str
    statement: ast.stmt


@dataclass(frozen=True)
class LossInStep:
    loss_node: ast.AST
    label: str
    strategy: Strategy
    call: ast.AST


@dataclass(frozen=True)
class StartupAfterOps:
    """The program's first collective or TPU set-up runs after another TensorFlow op."""

    node: ast.AST
    what: str
    first_op: ast.AST
    kind: str  # the strategy's class name, or "tpu_init"


@dataclass(frozen=True)
class SingleWorkerEvidence:
    """The program cannot be a multi-worker cluster member, or has no eager context to configure:
    `TF_CONFIG` removed, or TF1 graph mode (`disable_v2_behavior`, `disable_eager_execution`)."""

    node: ast.AST
    why: str


@dataclass(frozen=True)
class RestoreOutsideScope:
    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    targets: tuple[Owner, ...]
    strategy: Strategy
    what: str


@dataclass(frozen=True)
class RestoreIntoUnscoped:
    """A restore into objects created outside every scope (fine, unless they are replaced later)."""

    node: ast.AST
    what: str
    targets: tuple[Owner, ...]
    key: ast.AST


@dataclass(frozen=True)
class CompileCreatesOwners:
    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    model: Owner
    strategy: Strategy
    what: str


@dataclass(frozen=True)
class DataInScope:
    statement: ast.stmt
    scope_block: ast.With
    strategy: Strategy
    what: str


@dataclass(frozen=True)
class FitInScope:
    node: ast.AST
    model: Owner
    strategy: Strategy
    method: str


@dataclass(frozen=True)
class BuildOutsideScope:
    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    model: Owner




@dataclass(frozen=True)
class OptimizerV2Era:
    """The code runs on TF 2.1-2.3 (`experimental_run_v2`), whose OptimizerV2 creates its
    variables lazily, at the first `apply_gradients`."""

    node: ast.AST
