"""Placement at a glance, from the semantic model the diagnostics came from: which strategy owns
each named variable owner (inlay hints) and what each ``with ….scope():`` block creates and
takes in from outside (code lenses). Offsets are code points into ``Source.text``."""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from tfscope.model.entities import Owner, SemanticModel, Strategy
from tfscope.source import Source

NO_STRATEGY = "⟨no strategy⟩"


class OwnerHint(NamedTuple):
    """After the expression that creates a named owner: the strategy that owns its variables."""

    offset: int  # the end of the creating expression
    label: str  # "⟨strategy: MirroredStrategy⟩", or NO_STRATEGY when it is created outside and meets one
    explanation: str  # what the hover says about it


class ScopeSummary(NamedTuple):
    """One ``with S.scope():`` block: the owners created in it, and those created elsewhere used in it."""

    start: int  # the ``with`` header line
    end: int
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


def named_owners(model: SemanticModel) -> list[Owner]:
    """Each owner bound to a name at the top of its body, once."""
    return list({id(owner): owner for _, owner in model.bindings}.values())


def owner_hints(source: Source, model: SemanticModel, explain: Callable[[Owner], str]) -> list[OwnerHint]:
    """Nothing for an owner that never meets a strategy (a CPU copy, an export) or whose caller,
    and so its scope, is unknown; ``explain(owner)`` is the hover's text."""
    hints = []
    for owner in named_owners(model):
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
    """Each creation and each use counts in the innermost block of its strategy around it."""
    in_file = {id(node) for node in _with_statements(tree)}
    blocks: dict[int, _Block] = {}
    per_strategy: dict[int, _Blocks] = {}
    for strategy in model.strategies:
        for node in strategy.scope_blocks:
            if id(node) in in_file and id(node) not in blocks:  # not a block in another module's factory
                blocks[id(node)] = _Block(*source.node_span(node))
                per_strategy.setdefault(id(strategy), _Blocks()).add(blocks[id(node)])
    for owner in named_owners(model):
        site = source.node_span(owner.site)
        if owner.placement is not None:
            block = per_strategy.get(id(owner.placement), _NO_BLOCKS).innermost(site[0])
            if block is not None:
                block.created.append(site)
        for meeting in owner.meetings:
            if meeting.strategy is owner.placement:
                continue
            block = per_strategy.get(id(meeting.strategy), _NO_BLOCKS).innermost(source.node_span(meeting.node)[0])
            if block is not None and site not in block.used_from_outside:
                block.used_from_outside.append(site)
    return sorted(
        (ScopeSummary(block.start, source.line_end(source.line_of(block.start)),
                      tuple(block.created), tuple(block.used_from_outside))
         for block in blocks.values() if block.created or block.used_from_outside),
        key=lambda summary: summary.start,
    )


@dataclass
class _Block:
    start: int
    end: int
    created: list[tuple[int, int]] = field(default_factory=list)
    used_from_outside: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class _Blocks:
    """One strategy's blocks in the file, by start offset."""

    starts: list[int] = field(default_factory=list)
    blocks: list[_Block] = field(default_factory=list)

    def add(self, block: _Block) -> None:
        index = bisect.bisect_right(self.starts, block.start)
        self.starts.insert(index, block.start)
        self.blocks.insert(index, block)

    def innermost(self, offset: int) -> _Block | None:
        """The latest-starting block holding ``offset``."""
        for block in reversed(self.blocks[: bisect.bisect_right(self.starts, offset)]):
            if offset < block.end:
                return block
        return None


_NO_BLOCKS = _Blocks()


_NESTED_STATEMENTS = ("body", "orelse", "finalbody", "handlers", "cases")


def _with_statements(tree: ast.AST):
    """The file's `with` statements, walking statements only (expressions hold none)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        for name in _NESTED_STATEMENTS:
            for child in getattr(node, name, ()):
                if isinstance(child, ast.With):
                    yield child
                pending.append(child)
