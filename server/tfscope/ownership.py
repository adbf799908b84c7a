"""Placement at a glance, from the semantic model the diagnostics came from: which strategy owns
each named variable owner (inlay hints) and what each ``with ….scope():`` block creates and
takes in from outside (code lenses). Offsets are code points into ``Source.text``."""

from __future__ import annotations

import ast
from dataclasses import dataclass

from tfscope.model.entities import Owner, SemanticModel, Strategy
from tfscope.source import Source

NO_STRATEGY = "⟨no strategy⟩"


@dataclass(frozen=True)
class OwnerHint:
    """After the expression that creates a named owner: the strategy that owns its variables."""

    offset: int  # the end of the creating expression
    label: str  # "⟨strategy: MirroredStrategy⟩", or NO_STRATEGY when it is created outside and meets one
    explanation: str  # what the hover says about it


@dataclass(frozen=True)
class ScopeSummary:
    """One ``with S.scope():`` block: the owners created in it, and those created elsewhere used in it."""

    start: int  # the ``with`` header
    end: int
    strategy: str
    created: tuple[tuple[int, int], ...]  # creation spans, in order
    used_from_outside: tuple[tuple[int, int], ...]  # creation spans of owners made outside it

    @property
    def title(self) -> str:
        parts = [f"creates {_count(len(self.created), 'distributed object')}"] if self.created else []
        if self.used_from_outside:
            parts.append(f"{len(self.used_from_outside)} created outside is used here")
        return " · ".join(parts)


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def strategy_label(strategy: Strategy) -> str:
    """``⟨strategy: MirroredStrategy⟩``; a strategy of unknown class goes by its name."""
    known = strategy.kind not in ("unknown", "default")
    return f"⟨strategy: {strategy.kind if known else strategy.label or 'strategy'}⟩"


def named_owners(model: SemanticModel) -> list[tuple[ast.AST, Owner]]:
    """Each owner bound to a name at the top of its body, once, with its first name."""
    seen: set[int] = set()
    found = []
    for target, owner in model.bindings:
        if id(owner) not in seen:
            seen.add(id(owner))
            found.append((target, owner))
    return found


def owner_hints(source: Source, model: SemanticModel, explain) -> list[OwnerHint]:
    """Nothing for an owner that never meets a strategy (a CPU copy, an export) or whose caller,
    and so its scope, is unknown; ``explain(owner)`` is the hover's text."""
    hints = []
    for _, owner in named_owners(model):
        if owner.placement is not None:
            label = strategy_label(owner.placement)
        elif owner.meetings and owner.root.context_known:
            label = NO_STRATEGY
        else:
            continue
        _, end = source.node_span(owner.site)
        hints.append(OwnerHint(end, label, explain(owner)))
    return sorted(hints, key=lambda hint: hint.offset)


def scope_summaries(source: Source, model: SemanticModel, tree: ast.AST) -> list[ScopeSummary]:
    in_file = {id(node) for node in ast.walk(tree) if isinstance(node, ast.With)}
    owners = [owner for _, owner in named_owners(model)]
    summaries = []
    for strategy in model.strategies:
        for block in strategy.scope_blocks:
            if id(block) not in in_file:
                continue  # a block in another module's factory
            start, end = source.node_span(block)
            created = [owner for owner in owners if owner.placement is strategy and _inside(source, owner.site, start, end)]
            used = [
                owner
                for owner in owners
                if owner.placement is not strategy
                and any(m.strategy is strategy and _inside(source, m.node, start, end) for m in owner.meetings)
            ]
            if created or used:
                header_end = source.line_end(source.line_of(start))
                summaries.append(ScopeSummary(start, header_end, strategy.describe(),
                                              tuple(source.node_span(o.site) for o in created),
                                              tuple(source.node_span(o.site) for o in used)))
    return sorted(summaries, key=lambda summary: summary.start)


def _inside(source: Source, node: ast.AST, start: int, end: int) -> bool:
    node_start, _ = source.node_span(node)
    return start <= node_start < end

