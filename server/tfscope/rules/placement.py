"""What the creation-site rules (TFS001-TFS006) share: an owner made outside every scope
that later meets a strategy, reported at its creation with a fix that puts it in scope."""

from __future__ import annotations

import functools
from typing import Callable, Iterable

from tfscope.diagnostics import PlaceInScope
from tfscope.model.entities import Meeting, Owner, SemanticModel, Strategy
from tfscope.model.facts import Compile, HandedWithStrategy, KerasLoop, OptimizerStep, OptimizerV2Era
from tfscope.model.joins import contradicts, describe_conditions
from tfscope.model.object_methods import TRAINING_METHODS
from tfscope.resolve.catalog import READ_ONLY_STATE_LAYERS, Api
from tfscope.rules import Violation

# Where a fresh legacy optimizer meets a strategy without having made any variable yet.
_LAZY_OPTIMIZER_USES = frozenset({"step", "compile", "combined"})
# Keras loops that train or evaluate a model: the work a strategy distributes (`predict` only serves).
_PUT_TO_WORK_BY = TRAINING_METHODS | {"evaluate", "test_on_batch"}
# Kinds the "strategy created but never entered" check applies to.
_BUILT_AFTER_UNUSED_STRATEGY = frozenset({Api.MODEL, Api.OPTIMIZER, Api.METRIC, Api.LOADED_MODEL})
# Strategies whose replicas all run on one machine and so can all update one plain variable.
_ONE_MACHINE_STRATEGIES = frozenset({"MirroredStrategy", "OneDeviceStrategy", "CentralStorageStrategy"})


def misplaced_owners(model: SemanticModel, kinds: frozenset, vias: frozenset | None = None) -> Iterable[Violation]:
    parts = {id(part) for owner in model.owners for part in owner.parts}
    optimizer_v2_era = model.legacy_optimizers or bool(model.events_of(OptimizerV2Era))
    for owner in model.owners:
        if owner.kind not in kinds or id(owner) in parts or owner.weightless:
            continue
        if owner.kind is Api.OPTIMIZER and _creates_variables_lazily(owner, optimizer_v2_era):
            continue
        if (_read_by_gpu_replicas_only(owner) or _used_by_one_replica_only(owner)
                or _updated_by_one_machine_replicas_only(model, owner)):
            continue
        culprit = _culprit(model, owner)
        if culprit is None:
            continue
        meeting = next((m for m in owner.meetings if (vias is None or m.via in vias)
                        and (m.via != "replaces" or _put_to_work(model, owner))), None)
        if meeting is None and owner.placement is not None:
            meeting = Meeting(owner.placement, owner.site, f"created in the {owner.placement.describe()} scope")
        if meeting is not None:
            reason = meeting.reason
            path = describe_conditions([*culprit.condition, *meeting.condition], model.spelled)
            if path:
                reason += f" when {path}"
            yield outside_scope_violation(model, culprit, owner, meeting.strategy, reason, meeting.node,
                                          _optimizer_era(model, owner))
        elif owner.kind in _BUILT_AFTER_UNUSED_STRATEGY and _put_to_work(model, owner):
            strategy = unused_strategy_before(model, owner)
            if strategy is not None and not _models_all_predate(model, owner, strategy):
                yield outside_scope_violation(
                    model, culprit, owner, strategy, f"built after {strategy.describe()}, whose scope is "
                    "never entered, so it is not distributed", strategy.node)


def _put_to_work(model: SemanticModel, owner: Owner) -> bool:
    """A model trained or evaluated; an optimizer or metric, unless it belongs to models (compiled
    with them, or kept as their trackers) none of which is. One only built, loaded, compiled,
    exported (a SavedModel for serving) or run for predictions is not meant to be distributed,
    whatever strategy the notebook's set-up cell made."""
    if owner.kind not in (Api.MODEL, Api.LOADED_MODEL):
        users = [other for other in model.owners if other.kind in (Api.MODEL, Api.LOADED_MODEL) and (
            other.optimizer is owner or owner in other.compiled_metrics or owner in other.holds())]
        return not users or any(_put_to_work(model, user) for user in users)
    holders = [owner, *(other for other in model.owners if owner in other.parts)]
    return any(holder.trained for holder in holders) or any(
        event.model in holders for event in model.events_of(KerasLoop) if event.method in _PUT_TO_WORK_BY) or any(
        trained in holders for event in model.events_of(OptimizerStep) for trained in event.trained)


def put_to_work_after(model: SemanticModel, owner: Owner, event) -> bool:
    """Whether ``owner``, or a model holding it, is trained, or compiled or stepped after ``event``
    (events are in program order) on a path that can follow it: weights it made outside the scope
    then fail Keras 2's compile check or train undistributed. One compiled before and then only run
    for predictions is not, nor one trained only on another branch (`if mode == "train"`)."""
    holders = _holders(model, owner)
    if any(not contradicts(path, event.condition) for holder in holders for path in holder.trained_on):
        return True
    after = next(index for index, seen in enumerate(model.events) if seen is event) + 1
    later = [later_event for later_event in model.events[after:]
             if not contradicts(getattr(later_event, "condition", ()), event.condition)]
    return any(
        (isinstance(later_event, Compile) and later_event.model in holders)
        or (isinstance(later_event, KerasLoop) and later_event.method in TRAINING_METHODS and later_event.model in holders)
        # a step of the same run whose variables tfscope cannot name (`encoder.trainable_variables + ...`
        # kept in a name) may train it; one in another entry function (a helper given some model) does not
        or (isinstance(later_event, OptimizerStep)
            and ((not later_event.trained and later_event.root is owner.root)
                 or any(trained in holders for trained in later_event.trained)))
        # a trainer of another package handed it with the strategy trains it under that strategy
        or (isinstance(later_event, HandedWithStrategy) and any(handed in holders for handed in later_event.owners))
        for later_event in later)


def _holders(model: SemanticModel, owner: Owner) -> list[Owner]:
    """``owner`` and every model that holds it, however deep (see ``Owner.holds``)."""
    holders, unvisited = [owner], [owner]
    while unvisited:
        inner = unvisited.pop()
        for other in model.owners:
            if other not in holders and inner in other.holds():
                holders.append(other)
                unvisited.append(other)
    return holders


def _creates_variables_lazily(optimizer: Owner, optimizer_v2_era: bool) -> bool:
    """A legacy OptimizerV2 (TF < 2.11 by the version evidence or `experimental_run_v2`, or
    `optimizers.legacy`) used only in steps run by the strategy, or compiled in its scope,
    creates its iterations and slots at the first `apply_gradients`, in the replica context:
    they are distributed however the optimizer was constructed. (Keras 2's `_validate_compile`
    only checks the optimizer's existing `_weights`, which a fresh OptimizerV2 has none of.)"""
    legacy = optimizer_v2_era or optimizer.optimizer_v2
    return legacy and bool(optimizer.meetings) and all(m.via in _LAZY_OPTIMIZER_USES for m in optimizer.meetings)


def _optimizer_era(model: SemanticModel, optimizer: Owner) -> str:
    """Why an optimizer an OptimizerV2 would have tolerated is wrong here: the version evidence."""
    if optimizer.kind is not Api.OPTIMIZER or not _creates_variables_lazily(optimizer, optimizer_v2_era=True):
        return ""
    evidence = model.keras_evidence or "the `keras-version` setting"
    if model.keras_version != 2:
        return f" (Keras 3: {evidence}; its optimizers keep the strategy current when they are made)"
    return (f" (Keras 2: {evidence}; its optimizers since TensorFlow 2.11 keep the strategy current when they "
            "are made, and nothing confines it to an earlier release, whose OptimizerV2 makes its variables at its first "
            "step)")


def _read_by_gpu_replicas_only(owner: Owner) -> bool:
    """An adapted preprocessing layer (`Normalization`), or a plain variable no replica assigns and
    no optimizer trains (a learning rate, a step counter bumped on the host), only read in steps on
    GPUs: each mirrored replica reads the single copy, which works; on TPU the step cannot reach it."""
    read_only = ((owner.kind is Api.LAYER and owner.constructor in READ_ONLY_STATE_LAYERS)
                 or (owner.kind is Api.VARIABLE and owner.untrainable and not owner.updated_in_step))
    return read_only and _only_in_steps_of(owner, lambda strategy: strategy.kind != "TPUStrategy")


def _used_by_one_replica_only(variable: Owner) -> bool:
    """A plain variable used in steps of a OneDeviceStrategy: its one replica reads and updates the
    single copy, which works (there is nothing to mirror or race)."""
    return variable.kind is Api.VARIABLE and _only_in_steps_of(
        variable, lambda strategy: strategy.kind == "OneDeviceStrategy")


def _updated_by_one_machine_replicas_only(model: SemanticModel, metric: Owner) -> bool:
    """A metric only updated in steps of strategies on one machine: every replica adds into its one
    set of plain variables, so `result()` covers them all. Keras checks where a metric was created
    only under a TPUStrategy (`update_state_wrapper` in keras/utils/metrics_utils.py); across
    workers each would count only its own replicas."""
    return metric.kind is Api.METRIC and _only_in_steps_of(
        metric, lambda strategy: possible_kinds(model, strategy) <= _ONE_MACHINE_STRATEGIES)


def _only_in_steps_of(owner: Owner, strategy_fits) -> bool:
    """Whether the owner meets strategies only in their steps, each one that fits."""
    return bool(owner.meetings) and all(
        m.via == "step" and m.strategy is not None and strategy_fits(m.strategy) for m in owner.meetings)


def possible_kinds(model: SemanticModel, strategy: Strategy) -> frozenset[str]:
    """The kinds a strategy may be: on every path its name may hold it; one handed in (a parameter,
    of unknown kind) may be any the module or the rest of the project constructs, "unknown" when
    neither constructs one."""
    if strategy.node is not None or strategy.kind != "unknown":
        return frozenset(made.kind for made in (strategy, *strategy.alternatives))
    kinds = {made.kind for made in model.strategies if made.is_constructed}
    kinds.update(created.name for created in model.project_strategies())
    return frozenset(kinds) or frozenset({"unknown"})


def _culprit(model: SemanticModel, owner: Owner) -> Owner | None:
    """What holds the misplaced weights: the owner itself, or (functional models, models made
    of built sub-models) the first part whose weights were created outside every scope."""
    if not owner.parts:
        if owner.placement is None:
            return owner
        return _handed_in_from_outside(model, owner)
    culprit = _part_made_outside(owner, set(), functools.cache(lambda: _state_read_anywhere(model, owner)))
    if culprit is None and owner.placement is None and owner.fresh_layers:
        return owner  # a stack made outside on parts made inside: its own new layers' weights are outside
    # parts made by the same factory call as the owner are fixed by moving that call
    return owner if culprit is not None and culprit.site is owner.site else culprit


def _state_read_anywhere(model: SemanticModel, owner: Owner) -> bool:
    """Whether an adapted preprocessing layer made outside the scope is fine as a part of ``owner``:
    Keras 2's `compile` refuses any model variable made outside the scope (`_validate_compile`),
    while under Keras 3 replicas on GPUs read its one copy (a TPU cannot)."""
    strategies = [owner.placement] if owner.placement is not None else [m.strategy for m in owner.meetings]
    return model.keras_version != 2 and bool(strategies) and not any(
        "TPUStrategy" in possible_kinds(model, strategy) for strategy in strategies)


def _part_made_outside(owner: Owner, seen: set[int], read_state_anywhere: Callable[[], bool],
                       path: tuple = ()) -> Owner | None:
    """The first part with weights made outside every scope; a functional part whose layers are
    known holds only theirs (named for them when the same factory call made them). An adapted
    preprocessing layer's state counts unless ``read_state_anywhere()`` (asked only then: it may
    read the project's listing). A part made on a path that excludes the model's own (``path``: a
    base built per branch, under the scope or not) is another branch's, not this model's."""
    seen.add(id(owner))
    path = path or owner.condition
    for part in owner.parts:
        if contradicts(part.condition, path):
            continue
        if part.functional and part.parts:
            found = _part_made_outside(part, seen, read_state_anywhere, path) if id(part) not in seen else None
            if found is not None:
                return part if found.site is part.site else found
        elif (part.placement is None and part.makes_weights()
              and not (part.constructor in READ_ONLY_STATE_LAYERS and read_state_anywhere())):
            return part
    return None


def _handed_in_from_outside(model: SemanticModel, owner: Owner) -> Owner | None:
    """A built model made outside every scope before ``owner`` was and kept by its constructor
    (`self.backbone = backbone`; what the constructor makes itself comes after it): Keras 2's
    `compile` refuses its variables (`_validate_compile`), Keras 3 trains them undistributed."""
    kept = [held for held in owner.holds() if held.kind is Api.MODEL and held.placement is None
            and held.makes_weights() and (held.built or not held.lazy)]
    if not kept:
        return None
    made_before = set()
    for made in model.owners:
        if made is owner:
            return next((candidate for candidate in kept if id(candidate) in made_before), None)
        made_before.add(id(made))
    return None


def unused_strategy_before(model: SemanticModel, owner: Owner) -> Strategy | None:
    position = _position(owner.site)
    for strategy in model.strategies:
        # a strategy local to another function (an earlier test) is not one this code could enter
        visible = owner.key in strategy.names or model.module in strategy.names
        # one replica distributes nothing: what is built outside it trains the same
        if (strategy.is_constructed and not strategy.used and not strategy.single_replica
                and strategy.root is owner.root and visible and _position(strategy.node) < position):
            return strategy
    return None


def _models_all_predate(model: SemanticModel, owner: Owner, strategy: Strategy) -> bool:
    """An optimizer or metric built after a strategy nothing uses, in code whose models were all
    built before it: the program never meant to build in its scope (a vestigial strategy), and
    this object alone in the scope would train the same models, undistributed."""
    if owner.kind not in (Api.OPTIMIZER, Api.METRIC):
        return False
    models = [other for other in model.owners if other.kind in (Api.MODEL, Api.LOADED_MODEL) and other.root is owner.root]
    return bool(models) and all(_position(other.site) < _position(strategy.node) for other in models)


def outside_scope_violation(model: SemanticModel, culprit: Owner, owner: Owner, strategy: Strategy,
                            reason: str, interaction, version_note: str = "") -> Violation:
    name = strategy.name_for(culprit.key, model.module)
    if culprit is owner:
        message = f"{owner.kind.value.capitalize()} {owner.describe()} is created outside the strategy scope but is {reason}"
    else:
        message = (f"The weights of {culprit.describe()} are created outside the strategy scope, but they "
                   f"belong to {owner.describe()}, which is {reason}")
    message += f"; create it inside `with {name}.scope():`{version_note}"
    related = [(interaction, reason)] if interaction is not None else []
    if strategy.node is not None and strategy.node is not interaction:
        related.append((strategy.node, f"{strategy.describe()} is created here"))
    explanation = (
        f"{culprit.describe()} is created where no `strategy.scope()` is active, so its variables are "
        f"ordinary single-device variables. Later {owner.describe()} is {reason}. A strategy cannot "
        "turn existing variables into distributed ones."
    )
    return Violation(node=culprit.site, message=message, related=tuple(related), explanation=explanation,
                     intent=place_in_scope(model, culprit.statement, culprit.key, strategy))


def place_in_scope(model: SemanticModel, statement, key, strategy: Strategy) -> PlaceInScope | None:
    name = strategy.visible_name(key, model.module)
    if statement is None or not name:
        return None
    return PlaceInScope(
        statement=statement,
        strategy_name=name,
        scope_blocks=tuple(strategy.scope_blocks),
        strategy_binding=strategy.binding if strategy.binding_key is key else None,
    )


def _position(node) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
