"""Facts: what the interpreter saw happen at one point of the program, not verdicts.

Rules decide from these (and from the entities) whether something is wrong. Each is a
`NamedTuple`: immutable like a frozen dataclass, and about seven times cheaper to define on
CPython 3.11, which the language server's start-up pays for each of them.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from tfscope.model.entities import Owner, Strategy
from tfscope.model.values import Loss


class NestedScopes(NamedTuple):
    node: ast.AST  # the inner `s2.scope()` expression
    outer: Strategy
    inner: Strategy


class StrategyRecreated(NamedTuple):
    strategy: Strategy
    why: str
    # `TF_CONFIG` is rewritten between the constructions: in the loop that repeats it, or between
    # two calls of the function that makes it
    reconfigured: bool


class OptimizerStep(NamedTuple):
    """`apply_gradients`/`minimize` of ``optimizer``, with the context it runs in."""

    node: ast.AST
    method: str  # `apply_gradients` or `minimize`
    optimizer: Owner | None  # None: an optimizer tfscope does not see
    replica: Strategy | None  # the strategy whose `run` runs it, if any
    scope: Strategy | None  # the scope active around it
    call: ast.AST  # the call of the function that holds the step, in the analysed code
    statement: ast.stmt | None  # the statement of that call
    context_known: bool  # False in a function nobody calls: its caller may run it through `run`
    trained: tuple = ()  # the models whose variables the call names (`zip(grads, model.trainable_variables)`)
    called_in_a_loop: bool = False  # the function holding it is called from a loop (a training loop)
    condition: tuple = ()  # the path conditions under which it runs
    root: object = None  # the code analysed as one run (a module, an entry function) it is part of
    picked: object = None  # the ``StepPick`` that chose the step called, when a sibling picks a distributed one


class LoopInRun(NamedTuple):
    """`strategy.run(model.fit, ...)`: a whole Keras loop handed to `run`."""

    node: ast.AST
    strategy: Strategy
    method: str


class RunInReplica(NamedTuple):
    """`strategy.run(fn)` called where a step already runs once per replica of ``outer`` (a
    `train_step` that `fit` runs, a function `run` runs)."""

    node: ast.AST
    outer: Strategy


class LossCalled(NamedTuple):
    """A Keras loss object called; ``replica`` is the strategy whose `run` runs the call, if any,
    ``scope`` the strategy whose scope is open around it."""

    loss_node: ast.AST  # its constructor
    label: str
    default_reduction: bool
    replica: Strategy | None
    call: ast.AST
    reduction_site: ast.AST  # where the reduction is decided: where the fix goes
    scope: Strategy | None = None
    context_known: bool = True  # False in a function nobody in the file calls
    loss: Loss | None = None  # the object called (whose reduction the code may assign later)
    compiled_caller: str | None = None  # the loss or metric given to compile that calls it (see ``Loss``)
    reduced_elsewhere: bool = False  # the call's module neither made it nor decides its reduction


class StartupAfterOps(NamedTuple):
    """The program's first collective or TPU set-up runs after another TensorFlow op."""

    node: ast.AST
    what: str
    first_op: ast.AST
    kind: str  # the strategy's class name, or "tpu_init"
    cluster_set_before: bool = False  # the program had set `TF_CONFIG` by then
    first_op_path: tuple = ()  # the conditions the first op runs on that the set-up does not


class ClusterConfigured(NamedTuple):
    """`os.environ["TF_CONFIG"] = ...`: the program sets its cluster itself."""

    node: ast.AST


class UsedAfterTpuReset(NamedTuple):
    """An object created under a TPU strategy, used after `initialize_tpu_system` wiped the TPU."""

    node: ast.AST
    owner: Owner
    reset: ast.AST  # the initialize_tpu_system call


class SingleWorkerEvidence(NamedTuple):
    """The program cannot be a multi-worker cluster member, or has no eager context to configure:
    `TF_CONFIG` removed, or TF1 graph mode (`disable_v2_behavior`, `disable_eager_execution`)."""

    node: ast.AST
    why: str


class Restore(NamedTuple):
    """A checkpoint or weights file loaded into ``targets`` (`restore`, `restore_or_initialize`,
    `load_weights`), with what existed at that moment."""

    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    what: str
    targets: tuple[Owner, ...]
    in_scope: bool  # a strategy's scope (or a replica context) was active
    # targets whose optimizer variables did not exist yet: no step, no `optimizer.build`
    optimizer_variables_missing: tuple[Owner, ...]


class Compile(NamedTuple):
    """`model.compile(...)`; ``string_optimizer`` is what compile builds itself (`"adam"`, or
    the default `"rmsprop"`), None when it is handed an optimizer object."""

    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    model: Owner
    under: Strategy | None  # the scope active at the call
    string_optimizer: str | None
    condition: tuple = ()  # the path conditions under which it runs


class DataInScope(NamedTuple):
    """A statement directly in a scope block that builds an input pipeline and creates no variable."""

    statement: ast.stmt
    scope_block: ast.With
    strategy: Strategy


class HandedWithStrategy(NamedTuple):
    """Built objects handed to code tfscope cannot see together with a strategy (a trainer of
    another package), which uses them under it."""

    node: ast.AST
    owners: tuple
    strategy: Strategy


class KerasLoop(NamedTuple):
    """`fit`/`evaluate`/`predict` (or a batch method) of ``model``, with the scope active then."""

    node: ast.AST
    model: Owner
    scope: Strategy | None
    method: str
    condition: tuple = ()  # the path conditions under which it runs


class FirstBuild(NamedTuple):
    """A subclassed (lazily built) model's first call or build: where its weights appear."""

    node: ast.AST
    statement: ast.stmt
    key: ast.AST
    model: Owner
    under: Strategy | None  # the scope or replica context active then
    by_keras_loop: bool  # `fit`/`evaluate`/`predict`/`load_weights`: Keras enters the recorded strategy
    condition: tuple = ()  # the path conditions under which it runs


class OptimizerV2Era(NamedTuple):
    """The code runs on TF 2.1-2.3 (`experimental_run_v2`) or, calling a module that uses
    TensorFlow-1-only APIs, on TF 1: their OptimizerV2 creates its variables lazily, at the
    first `apply_gradients`."""

    node: ast.AST
