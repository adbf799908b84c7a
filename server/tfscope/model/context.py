"""Frames, the strategy stack and the interpreter's limits."""

from __future__ import annotations

import ast
from collections import ChainMap
from dataclasses import dataclass, field
from typing import NamedTuple

from tfscope.astutil import dotted_name
from tfscope.model.entities import Strategy
from tfscope.model.facts import NestedScopes
from tfscope.model.joins import (
    Condition,
    condition_of,
    contradicts,
    existence_of,
    in_terms_of,
    join_values,
    owners_in,
)
from tfscope.model.values import Function, ScopeContext

MAX_CALL_DEPTH = 12
# a function may run inside its own run once, given other strings: a factory that builds what builds
# through it again (`build_from_config` making a model whose constructor builds its loss by the same call)
MAX_NESTED_RUNS = 2
MAX_INLINED_STATEMENTS = 200_000  # keeps pathological files linear


class TestParts(NamedTuple):
    """The parts of a branch's test that a path's literals may decide (see ``ScopeStack.parts_of``)."""

    names: frozenset[str]  # every name it reads
    read: tuple[ast.expr, ...]  # its names and attributes of names (`self.strategy`), in `ast.walk` order
    calls: tuple[ast.Call, ...]  # its calls, in `ast.walk` order


@dataclass
class Frame:
    env: dict
    parent: Frame | None = None
    function: Function | None = None
    returns: list = field(default_factory=list)
    yielded: ScopeContext | None = None
    scope_depth_at_entry: int = 0
    loop_depth_at_entry: int = 0  # loops around the call that runs this frame
    statement: ast.stmt | None = None  # the statement of this frame being executed
    key: ast.AST | None = None  # the function (or module) whose body this frame runs
    conditions_at_entry: int = 0  # the caller's path ends here: what a `return` adds is the body's
    literal_arguments: frozenset = frozenset()  # parameters the call passed a literal (`is_distributed=True`)
    passed: dict | None = None  # parameter -> the plain value the call passed it (see ``joins.passed_arguments``)

    @property
    def module(self) -> ast.AST | None:
        """The module whose code defines this frame's code (the key of its outermost frame)."""
        frame = self
        while frame.parent is not None:
            frame = frame.parent
        return frame.key

    def lookup(self, name: str):
        value = self._bound(name)
        return None if value is _ABSENT else value

    def binds(self, name: str) -> bool:
        """Whether the code binds ``name`` (to anything, known or not) where this frame sees it."""
        return self._bound(name) is not _ABSENT

    def _bound(self, name: str):
        frame = self
        while frame is not None:
            value = _binding(frame.env, name)
            if value is not _ABSENT:
                return value
            frame = frame.parent
        return _ABSENT


_ABSENT = object()


def _binding(env: dict | ChainMap, name: str):
    """``env[name]``, else _ABSENT: a branch's layers (ChainMaps) read at dict speed, as ChainMap
    itself checks, then reads, each layer in Python."""
    if type(env) is dict:
        return env.get(name, _ABSENT)
    for layer in env.maps:
        value = _binding(layer, name)
        if value is not _ABSENT:
            return value
    return _ABSENT


class ScopeStack:
    """The dynamic strategy stack: with-blocks, `__enter__`, `experimental_set_strategy`."""

    # -------------------------------------------------------------- scopes

    def current(self) -> Strategy | None:
        """The innermost strategy entered on the current path (one set in a branch by
        `experimental_set_strategy` stays after it, but only on that branch's path)."""
        if not self.conditions:  # no path assumed: nothing to contradict
            return self.scopes[-1] if self.scopes else None
        for strategy in reversed(self.scopes):
            if not contradicts(self.entered_on(strategy), self.conditions):
                return strategy
        return None

    def entered_on(self, strategy: Strategy) -> tuple:
        """The path on which ``strategy`` is in the stack: where it exists and was set."""
        return strategy.condition + self.set_on.get(id(strategy), ())

    def current_strategy_value(self) -> Strategy:
        """What `tf.distribute.get_strategy()` returns: the current strategy, joined with the one
        below it where that strategy is current on some paths only (set in a branch)."""
        current = self.current()
        if current is None:
            return self.default_strategy
        if all(c in self.conditions or c[0] == existence_of(current) for c in self.entered_on(current)):
            return current
        below = next((s for s in reversed(self.scopes[:self.scopes.index(current)])
                      if not contradicts(self.entered_on(s), self.conditions)), self.default_strategy)
        return join_values([below, current])

    def enter_scope(self, strategy: Strategy, expr: ast.AST, with_node: ast.AST | None) -> None:
        outer = self.current()
        if (
            outer is not None
            and outer is not strategy
            and outer.is_constructed
            and strategy.is_constructed
        ):
            self.report(NestedScopes((expr), outer, strategy))
        strategy.mark_used()
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            strategy.name_in(self.frame.key, dotted_name(expr.func.value))
        if with_node is not None:
            if with_node not in strategy.scope_blocks:
                strategy.scope_blocks.append(with_node)
            self.current_with.append((with_node, strategy))
        self.scopes.append(strategy)
        self.scopes_entered += 1

    def exit_scope(self) -> None:
        if self.scopes:
            self.scopes.pop()

    def symbolic_strategy(self, text: str) -> Strategy:
        key = (self.root, text)
        strategy = self.symbolic_strategies.get(key)
        if strategy is None:
            strategy = Strategy("unknown", None, self.root, label=text)
            strategy.condition = ((existence_of(strategy), True),)
            strategy.name_in(self.frame.key, text)
            self.symbolic_strategies[key] = strategy
            self.model.strategies.append(strategy)
        return strategy

    # ------------------------------------------------------ path conditions

    def condition_of(self, test: ast.expr) -> Condition:
        """``joins.condition_of``, worked out once per test (a function's body runs at each call),
        except where the test names a parameter: then it speaks of what this call passed it."""
        passed = self.frame.passed
        if passed:
            if not self.parts_of(test).names.isdisjoint(passed):
                condition = condition_of(in_terms_of(test, passed))
                self.model.spelled.setdefault(condition[0], self.written_condition(test)[0])
                return condition
        return self.written_condition(test)

    def parts_of(self, test: ast.expr) -> TestParts:
        """What of ``test`` a path's literals may decide, found in one walk of it once per build
        (a function's tests are read again at each of its calls)."""
        parts = self.test_parts.get(test)
        if parts is None:
            read, calls = [], []
            for node in ast.walk(test):
                if isinstance(node, ast.Name) or (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
                    read.append(node)
                elif isinstance(node, ast.Call):
                    calls.append(node)
            names = frozenset(node.id for node in read if isinstance(node, ast.Name))
            parts = self.test_parts[test] = TestParts(names, tuple(read), tuple(calls))
        return parts

    def written_condition(self, test: ast.expr) -> Condition:
        condition = self.conditions_by_test.get(test)
        if condition is None:
            condition = self.conditions_by_test[test] = condition_of(test)
        return condition

    def assume(self, condition: Condition, held: bool) -> int:
        """Run what follows under ``condition``; returns the mark to ``forget`` it at."""
        self.conditions.append((condition[0], condition[1] is held))
        return len(self.conditions) - 1

    def assume_all(self, conditions) -> int:
        """Run what follows also under ``conditions`` (an object's path); the mark to ``forget`` at."""
        mark = len(self.conditions)
        self.conditions.extend(c for c in conditions if c not in self.conditions)
        return mark

    def forget(self, mark: int) -> None:
        del self.conditions[mark:]

    def feasible(self, value) -> list:
        """The owners ``value`` (an owner, alternatives, or a list of owners) may be on the current path."""
        owners = [owner for item in value for owner in owners_in(item)] if isinstance(value, list) else owners_in(value)
        return [owner for owner in owners if not contradicts(owner.condition, self.conditions)]

    def meet(self, value, strategy: Strategy | None, node: ast.AST, reason: str, via: str) -> None:
        for owner in self.feasible(value):
            # an object made where the strategy does not exist (`else: strategy = None`) never meets it
            if strategy is not None and contradicts(owner.condition, strategy.condition):
                continue
            # made by another body whose caller tfscope cannot see (a `create_optimizer` method), away
            # from this strategy (or handed one by that caller): whether the caller had the scope
            # open is unknown here
            if (not owner.root.context_known and owner.root is not self.root
                    and (strategy is None or strategy.root is not owner.root or strategy.node is None)):
                continue
            owner.meet(strategy, node, reason, via, tuple(self.conditions))

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    @property
    def statement(self) -> ast.stmt | None:
        return self.frames[-1].statement
