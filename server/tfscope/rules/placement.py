"""What the creation-site rules (TFS001-TFS006) share: an owner made outside every scope
that later meets a strategy, reported at its creation with a fix that puts it in scope."""

from __future__ import annotations

from typing import Iterable

from tfscope.diagnostics import PlaceInScope
from tfscope.model.entities import Owner, SemanticModel, Strategy
from tfscope.resolve.catalog import Api
from tfscope.rules import Violation

# Kinds the "strategy created but never entered" check applies to.
_BUILT_AFTER_UNUSED_STRATEGY = frozenset({Api.MODEL, Api.OPTIMIZER, Api.METRIC, Api.LOADED_MODEL})


def misplaced_owners(model: SemanticModel, kinds: frozenset, vias: frozenset | None = None) -> Iterable[Violation]:
    for owner in model.owners:
        if owner.kind not in kinds or owner.placement is not None:
            continue
        meeting = next((m for m in owner.meetings if vias is None or m.via in vias), None)
        if meeting is not None:
            yield outside_scope_violation(owner, meeting.strategy, meeting.reason, meeting.node)
        elif owner.kind in _BUILT_AFTER_UNUSED_STRATEGY:
            strategy = unused_strategy_before(model, owner)
            if strategy is not None:
                yield outside_scope_violation(
                    owner, strategy, f"{strategy.describe()} is created before it but its scope is never "
                    "entered, so the object is not distributed", strategy.node)


def unused_strategy_before(model: SemanticModel, owner: Owner) -> Strategy | None:
    position = _position(owner.site)
    for strategy in model.strategies:
        if (strategy.is_constructed and not strategy.used and strategy.root is owner.root
                and _position(strategy.node) < position):
            return strategy
    return None


def outside_scope_violation(owner: Owner, strategy: Strategy, reason, interaction) -> Violation:
    noun = owner.kind.value
    name = strategy.label or "strategy"
    message = (
        f"{noun.capitalize()} {owner.describe()} is created outside the strategy scope but is "
        f"{reason}; create it inside `with {name}.scope():`"
    )
    related = [(interaction, reason)] if interaction is not None else []
    if strategy.node is not None and strategy.node is not interaction:
        related.append((strategy.node, f"{strategy.describe()} is created here"))
    explanation = (
        f"{owner.describe()} is created at a point where no `strategy.scope()` is active, so its "
        f"variables are ordinary single-device variables. Later it is {reason}. A strategy cannot "
        "retroactively turn existing variables into distributed ones."
    )
    return Violation(owner.site, message, tuple(related), explanation, place_in_scope(owner.statement, owner.root, strategy))


def place_in_scope(statement, root, strategy: Strategy) -> PlaceInScope | None:
    if statement is None or not strategy.label or not _is_plain_name(strategy.label):
        return None
    same_root = strategy.root is root
    return PlaceInScope(
        statement=statement,
        strategy_name=strategy.label,
        scope_blocks=tuple(strategy.scope_blocks) if same_root else (),
        strategy_binding=strategy.binding if same_root else None,
    )


def _is_plain_name(label: str) -> bool:
    return all(part.isidentifier() for part in label.split("."))


def _position(node) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
