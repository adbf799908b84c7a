"""What the semantic model knows: strategies, variable owners, where they meet, and events.

Rules read these; they never parse. Nodes are ast nodes of the analysed module; a ``site`` is
always in the analysed root (for a factory call, the call, not the factory body), which is
where both the report and the fix belong.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from tfscope.resolve.catalog import WEIGHTLESS_LAYERS, Api


@dataclass(eq=False)
class Root:
    """One analysed body: the module, or a function nobody in the file calls."""

    node: ast.AST
    context_known: bool  # False for uncalled functions: their caller's scope is unknown
    test_entry: bool = False  # a test a test runner calls, with no strategy of its own


@dataclass(eq=False)
class Strategy:
    kind: str  # "MirroredStrategy", ..., "default", or "unknown" for parameters/attributes
    node: ast.AST | None  # the constructor call; None when received from elsewhere
    root: Root
    label: str = ""  # the name it goes by where it is bound, e.g. "strategy"
    binding: ast.stmt | None = None  # the statement that first binds it
    binding_key: ast.AST | None = None  # the function (or module) of that statement
    used: bool = False  # entered, run, or handed to something else
    scope_blocks: list[ast.With] = field(default_factory=list)
    names: dict = field(default_factory=dict)  # function (or module) -> the name it goes by there
    alternatives: list[Strategy] = field(default_factory=list)  # strategies this name held before
    tpu_system: object = None  # the cluster resolver a TPUStrategy runs on
    device_subset: bool = False  # a TPUStrategy over part of that system (`device_assignment=`)
    single_replica: bool = False  # one device: a OneDeviceStrategy, `MirroredStrategy(devices=["/gpu:0"])`
    condition: tuple = ()  # the path conditions under which it is created: ((test text, held), ...)

    def mark_used(self) -> None:
        if self.used:
            return
        self.used = True
        for alternative in self.alternatives:
            alternative.mark_used()

    def name_in(self, key: ast.AST | None, text: str | None) -> None:
        if not text:
            return
        self.names.setdefault(key, text)
        if not self.label or self.label.endswith("()"):
            self.label = text

    def visible_name(self, key: ast.AST | None, module: ast.AST | None) -> str | None:
        """The expression that reaches this strategy from code in ``key`` (a strategy kept in
        `self.<attr>` is reached so from every method of the class)."""
        return (self.names.get(key) or self.names.get(module)
                or next((name for name in self.names.values() if name.startswith("self.")), None))

    def name_for(self, key: ast.AST | None, module: ast.AST | None) -> str:
        """What a message calls it in code of ``key``."""
        return self.visible_name(key, module) or self.label or "strategy"

    def shares_variables_with(self, other: Strategy) -> bool:
        """TPUStrategies on one TPU system, one of them over a subset of its cores (SEED RL's
        training strategy): their TPU variables pick their component by device, so each may
        use the other's."""
        return (self.tpu_system is not None and self.tpu_system is other.tpu_system
                and (self.device_subset or other.device_subset))

    @property
    def is_default(self) -> bool:
        return self.kind == "default"

    @property
    def is_constructed(self) -> bool:
        """A strategy this file constructs: its identity is known."""
        return self.node is not None and not self.is_default

    def describe(self) -> str:
        """`strategy` (TPUStrategy), or with the kinds it may also be on other paths (a `try` that
        falls back to another strategy): `strategy` (TPUStrategy or OneDeviceStrategy)."""
        name = self.label or "strategy"
        made = sorted((self, *self.alternatives), key=lambda strategy: getattr(strategy.node, "lineno", 0))
        kinds = list(dict.fromkeys(strategy.kind for strategy in made if strategy.kind not in ("unknown", "default")))
        return f"`{name}` ({' or '.join(kinds)})" if kinds and self.kind not in ("unknown", "default") else f"`{name}`"


class Meeting(NamedTuple):
    """An interaction that expects an object to live under ``strategy``."""

    strategy: Strategy
    node: ast.AST
    reason: str  # e.g. "compiled inside the `strategy` scope"
    via: str = "combined"  # "compile", "loop", "combined", "checkpoint", "step" or "handed"
    condition: tuple = ()  # the path conditions under which it happens: ((test text, held), ...)


@dataclass(eq=False)
class Owner:
    """An object that owns TensorFlow variables (or a checkpoint tracking such objects)."""

    kind: Api
    label: str  # how it was made, e.g. "keras.Sequential" or "build_model()"
    site: ast.AST
    statement: ast.stmt
    placement: Strategy | None
    root: Root
    name: str = ""
    meetings: list[Meeting] = field(default_factory=list)
    parts: list[Owner] = field(default_factory=list)  # functional layers whose weights it holds
    tracked: list[Owner] = field(default_factory=list)  # what a checkpoint tracks
    attrs: dict = field(default_factory=dict)
    lazy: bool = False  # a subclassed model: weights appear at its first call or build
    optimizer: object = None  # what compile() gave it: an Owner, a string, or an UnseenOptimizer
    compiled_functions: tuple = ()  # the loss and metrics compile() gave it, which Keras calls per replica
    compiled_metrics: tuple = ()  # the metric objects compile() gave it
    # the path conditions of each training step (or optimizer.build) that ran: slot variables exist
    trained_on: list[tuple] = field(default_factory=list)
    restored: bool = False  # a checkpoint or weights file was loaded into it
    built: bool = False  # its first call or build ran (a lazy model's weights exist)
    key: ast.AST | None = None  # the function (or module) whose code creates it
    site_frame: object = field(default=None, repr=False)
    condition: tuple = ()  # the path conditions under which it is created: ((test text, held), ...)
    wiped_by: ast.AST | None = None  # an `initialize_tpu_system` after it was created on the TPU
    updated_in_step: bool = False  # a variable a replica assigns (`assign_add`) or names in a step
    untrainable: bool = False  # a variable no optimizer trains (`trainable=False`, an integer counter)
    optimizer_v2: bool = False  # a legacy OptimizerV2 by its own code (`optimizers.legacy`, or its fallback)
    # nothing of its own to place where it is created: its class makes no variable there (see ``ClassValue``),
    # or what it holds is judged where that is made (a constructor entering its own scope, a loss-scale wrapper)
    weightless: bool = False
    functional: bool = False  # `keras.Model(inputs, outputs)`: it holds its layers' weights, none of its own
    # the class that made it (`Normalization`), kept when the label names the factory that returned it
    constructor: str = ""
    fresh_layers: bool = False  # a `Sequential` stacking new weight-making layers of its own, besides its parts

    def __post_init__(self) -> None:
        self.constructor = self.constructor or self.label.rsplit(".", 1)[-1]

    def meet(self, strategy: Strategy | None, node: ast.AST, reason: str, via: str, condition: tuple = ()) -> None:
        if strategy is None or strategy.is_default or strategy is self.placement:
            return
        for index, met in enumerate(self.meetings):
            if met.strategy is strategy and met.via == via:
                if met.node is node:  # the same use on another path: only what both paths share conditions it
                    self.meetings[index] = met._replace(condition=tuple(c for c in met.condition if c in condition))
                return
        self.meetings.append(Meeting(strategy, node, reason, via, condition))

    def train(self, condition: tuple) -> None:
        self.trained_on.append(condition)

    @property
    def trained(self) -> bool:
        return bool(self.trained_on)

    def describe(self) -> str:
        return f"`{self.name}` ({self.label})" if self.name else f"`{self.label}`"

    def makes_weights(self) -> bool:
        """Whether building it makes any weight: not a weightless layer (`Flatten`, `Resizing`)."""
        return not self.weightless and self.constructor not in WEIGHTLESS_LAYERS

    def holds(self) -> list[Owner]:
        """The models and layers whose weights it holds: a functional model's layers, and the
        ones its constructor keeps in attributes (`self.backbone = backbone`)."""
        return [*self.parts, *(value for value in self.attrs.values() if isinstance(value, Owner))]


@dataclass
class SemanticModel:
    keras_version: int
    keras_evidence: str = ""  # why that version: the file, a setting, the environment, declared dependencies
    legacy_optimizers: bool = False  # the evidence pins TensorFlow before 2.11 (OptimizerV2)
    slots_in_current_strategy: bool = False  # the evidence pins TensorFlow before 2.5 (see ``KerasVersion``)
    unscaled_replica_losses: bool = False  # the evidence pins Keras 3.0-3.7 (see ``KerasVersion``)
    graph_mode: bool = False  # TensorFlow 1 building graphs (see ``KerasVersion``)
    module: ast.AST | None = None
    owners: list[Owner] = field(default_factory=list)
    strategies: list[Strategy] = field(default_factory=list)
    events: list = field(default_factory=list)
    # root-level name bindings of owners, for hovers: (name node, owner)
    bindings: list[tuple[ast.AST, Owner]] = field(default_factory=list)
    # a path condition rewritten into the terms of the code that called it -> the test as written
    spelled: dict[str, str] = field(default_factory=dict)
    # the strategies created elsewhere in the user's project (``resolve.distribution``), asked lazily
    project_strategies: Callable[[], tuple] = field(default=tuple, repr=False)

    def events_of(self, kind: type) -> list:
        return [event for event in self.events if isinstance(event, kind)]
