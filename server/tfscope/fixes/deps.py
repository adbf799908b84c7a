"""Which names a statement reads and writes, so a move never reorders dependent code.

Conservative by design: any doubt (global side effects, control flow, star imports) makes a
statement *opaque*, and nothing moves across an opaque statement.
"""

from __future__ import annotations

import ast
import weakref
from dataclasses import dataclass, field
from typing import Iterable

from tfscope.astutil import dotted_name, walk_statements

# Calls run only for their output: a bare call of these never orders anything.
_OUTPUT_ONLY_CALLS = frozenset({"print", "pprint", "tf.print"})
_OUTPUT_ONLY_RECEIVERS = frozenset({"logging", "logger", "log", "absl_logging"})
# A moved statement would run, or stop running, on a different path across these.
_CONTROL_FLOW = (ast.Return, ast.Break, ast.Continue, ast.Raise, ast.Yield, ast.YieldFrom)
_NESTED_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


@dataclass
class Effects:
    reads: set[str] = field(default_factory=set)
    writes: set[str] = field(default_factory=set)  # rebinding or mutating (method call, item/attr store)
    opaque: bool = False  # touches state names cannot describe (global side effects, control flow)

    def merge(self, other: Effects) -> None:
        self.reads |= other.reads
        self.writes |= other.writes
        self.opaque |= other.opaque


class DependencyIndex:
    """Module-wide facts a statement's effects depend on: imports and the file's own functions."""

    @classmethod
    def of(cls, tree: ast.AST) -> DependencyIndex:
        """One index per tree, shared by all the fixes built on it."""
        index = _INDEXES.get(tree)
        if index is None:
            index = _INDEXES[tree] = cls(tree)
        return index

    def __init__(self, tree: ast.AST) -> None:
        self.module_names: set[str] = set()
        self.definitions: dict[str, list[ast.AST]] = {}
        for node in walk_statements(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.module_names.update(_imported_name(alias) for alias in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.definitions.setdefault(node.name, []).append(node)
        self._callee_effects: dict[str, Effects] = {}

    def effects(self, statements: Iterable[ast.AST]) -> Effects:
        total = Effects()
        for statement in statements:
            total.merge(self._statement_effects(statement))
        return total

    def scope_header_effects(self, block: ast.With) -> Effects:
        """A ``with`` header reads its context expressions and binds its ``as`` targets.

        Entering a scope does not change the strategy, so its receiver is read, not written.
        """
        effects = Effects()
        for item in block.items:
            effects.reads.update(
                node.id for node in ast.walk(item.context_expr) if isinstance(node, ast.Name)
            )
            if item.optional_vars is not None:
                effects.merge(self._statement_effects(item.optional_vars))
        return effects

    def _statement_effects(self, statement: ast.AST) -> Effects:
        effects = Effects()
        for node in _walk_executed(statement):
            self._note(node, effects)
        return effects

    def _note(self, node: ast.AST, effects: Effects) -> None:
        if isinstance(node, ast.Name):
            (effects.reads if isinstance(node.ctx, ast.Load) else effects.writes).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            effects.writes.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    effects.opaque = True
                effects.writes.add(_imported_name(alias))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            effects.writes.update(node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            effects.writes.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            effects.writes.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            effects.writes.add(node.rest)
        elif isinstance(node, (ast.Attribute, ast.Subscript)) and not isinstance(node.ctx, ast.Load):
            self._note_mutation(_base_name(node), effects)
        elif isinstance(node, ast.Call):
            self._note_call(node, effects)
        elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
            self._note_bare_call(node.value, effects)
        elif isinstance(node, _CONTROL_FLOW):
            effects.opaque = True

    def _note_mutation(self, base: str | None, effects: Effects) -> None:
        if base is None or base in self.module_names:
            effects.opaque = True  # a store into a module or an unnamed object: global state
        else:
            effects.writes.add(base)

    def _note_call(self, call: ast.Call, effects: Effects) -> None:
        if isinstance(call.func, ast.Attribute):
            base = _base_name(call.func)
            if base is not None and base not in self.module_names:
                effects.writes.add(base)  # a method call may change its receiver
        elif isinstance(call.func, ast.Name) and call.func.id in self.definitions:
            effects.merge(self._callee(call.func.id))

    def _note_bare_call(self, value: ast.expr, effects: Effects) -> None:
        call = value.value if isinstance(value, ast.Await) else value
        if not isinstance(call, ast.Call):
            return
        name = dotted_name(call.func)
        if name is None:
            effects.opaque = True
        elif name in _OUTPUT_ONLY_CALLS or name.split(".")[0] in _OUTPUT_ONLY_RECEIVERS:
            return
        elif "." not in name or name.split(".")[0] in self.module_names:
            effects.opaque = True  # a function or library call run for its side effects

    def _callee(self, name: str) -> Effects:
        """What calling the file's own function or class may read and write (transitively)."""
        if name in self._callee_effects:
            return self._callee_effects[name]
        effects = Effects()
        self._callee_effects[name] = effects  # a recursive call sees the partial result
        for definition in self.definitions[name]:
            declared = {
                declared_name
                for node in ast.walk(definition)
                if isinstance(node, (ast.Global, ast.Nonlocal))
                for declared_name in node.names
            }
            body_effects = Effects()
            for node in ast.walk(definition):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                    body_effects.reads.add(node.id)
                elif isinstance(node, ast.Call):
                    self._note_call(node, body_effects)
                elif isinstance(node, ast.Expr) and isinstance(node.value, (ast.Call, ast.Await)):
                    self._note_bare_call(node.value, body_effects)
            body_effects.writes = (body_effects.writes - _local_names(definition)) | declared
            body_effects.opaque |= bool(declared)
            effects.merge(body_effects)
        return effects


_INDEXES: weakref.WeakKeyDictionary[ast.AST, DependencyIndex] = weakref.WeakKeyDictionary()


def _walk_executed(statement: ast.AST):
    """The nodes a statement evaluates now: nested function and class bodies run later."""
    pending = [statement]
    while pending:
        node = pending.pop()
        yield node
        if isinstance(node, _NESTED_SCOPES):
            pending.extend(_evaluated_at_definition(node))
            continue
        pending.extend(ast.iter_child_nodes(node))


def _evaluated_at_definition(node: ast.AST) -> list[ast.AST]:
    """What runs when a def or class statement runs: decorators, defaults, bases, class bodies."""
    if isinstance(node, ast.Lambda):
        return [*node.args.defaults, *[default for default in node.args.kw_defaults if default]]
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords, *node.body]
    arguments = node.args
    return [
        *node.decorator_list,
        *arguments.defaults,
        *[default for default in arguments.kw_defaults if default],
    ]


def _local_names(definition: ast.AST) -> set[str]:
    """Parameters and names a function or class assigns: its callers cannot see them change."""
    names = {
        node.id for node in ast.walk(definition) if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load)
    }
    names.update(argument.arg for argument in ast.walk(definition) if isinstance(argument, ast.arg))
    return names


def _imported_name(alias: ast.alias) -> str:
    return alias.asname or alias.name.split(".")[0]


def _base_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def conflicts(moved: Effects, crossed: Effects, crossed_any: bool) -> bool:
    """Whether moving a statement across others could change what either side computes."""
    if not crossed_any:
        return False
    if moved.opaque or crossed.opaque:
        return True
    return bool(moved.writes & (crossed.reads | crossed.writes) or moved.reads & crossed.writes)
