"""Where control flow meets again: what a name may hold after `if`/`try`/loops, and the path
conditions under which an object exists.

An object is reported when some feasible path makes it wrong. A variable owner made in one
branch of ``if c:`` carries the condition ``(c, True)``; code later guarded by the same test
only sees the owners that can exist there, so branches that each stay consistent stay quiet.
"""

from __future__ import annotations

import ast
from functools import lru_cache
from typing import Iterable, Iterator, NamedTuple

from tfscope.astutil import arguments_by_parameter, dotted_name, per_node, text_of
from tfscope.model.entities import Owner, Strategy
from tfscope.model.values import (
    Alternatives,
    ApiRef,
    BoundMethod,
    ClassValue,
    Function,
    Instance,
    Loss,
    ScopeContext,
    Sequence,
)

Condition = tuple[str, bool]  # (the test's text, whether it held)
_UNBOUND = object()
# statements after which the rest of a block does not run
_FLOW_ENDS = (ast.Return, ast.Raise, ast.Break, ast.Continue)


# a negated comparison speaks of the comparison it negates: `a not in b` is `a in b` not held
_NEGATED_COMPARISONS = {ast.NotIn: ast.In, ast.NotEq: ast.Eq}
_NEGATION = {**_NEGATED_COMPARISONS, **{positive: negated for negated, positive in _NEGATED_COMPARISONS.items()}}
# the script guard holds whenever the file runs as a program: naming it says nothing
_SCRIPT_GUARDS = frozenset({"__name__ == '__main__'", '__name__ == "__main__"'})
_EXISTENCE = "\x00exists:"


def condition_of(test: ast.expr) -> Condition:
    """`not x`, `x is None` and `x is not None` speak of `x`, `a not in b` of `a in b`, `a != b`
    of `a == b`; other tests stand for themselves."""
    subject, held = subject_of(test)
    return text_of(subject), held


def subject_of(test: ast.expr) -> tuple[ast.expr, bool]:
    """What a test speaks of, and whether it holds when the test does (see ``condition_of``)."""
    held = True
    while True:
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, held = test.operand, not held
        elif (isinstance(test, ast.Compare) and len(test.ops) == 1
              and type(test.ops[0]) in _NEGATED_COMPARISONS):
            positive = ast.Compare(test.left, [_NEGATED_COMPARISONS[type(test.ops[0])]()], test.comparators)
            test, held = ast.copy_location(positive, test), not held
        elif (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot, ast.Eq))
              and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
            # `x == None` is how some code spells `x is None`
            test, held = test.left, held if isinstance(test.ops[0], ast.IsNot) else not held
        elif (isinstance(test, ast.Call) and isinstance(test.func, ast.Name) and test.func.id == "bool"
              and len(test.args) == 1):
            test = test.args[0]
        else:
            return test, held


def existence_of(strategy: Strategy) -> str:
    """The condition that holds exactly where ``strategy`` exists (a name that holds it is truthy);
    never named in a message."""
    return f"{_EXISTENCE}{id(strategy)}"


# comparisons a literal flag can be folded through (`mode == "mirrored"`, `strategy is None`,
# `name in ["ols", "kriging"]`: membership only in a literal list, tuple or set, or a string)
_FOLDED_COMPARISONS = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b,
    ast.Is: lambda a, b: type(a) is type(b) and a == b, ast.IsNot: lambda a, b: not (type(a) is type(b) and a == b),
    ast.In: lambda a, b: _member(a, b), ast.NotIn: lambda a, b: _negated(_member(a, b)),
}
_LITERAL_CONTAINERS = (ast.List, ast.Tuple, ast.Set)


def literal_truth(test: ast.expr, literals: dict) -> bool | None:
    """Whether ``test`` holds when it speaks only of names bound to literals (``literals``: name ->
    value; a call node -> what it returns) and of constants; None when anything else decides it."""
    value = _folded(test, literals)
    return None if value is _UNBOUND else bool(value)


def without_decided(test: ast.expr, literals: dict) -> ast.expr:
    """``test`` without the operands of its `and`/`or` that ``literals`` decide, where the test as a
    whole stays undecided: they hold (`and`) or fail (`or`) on every path through it, so the path
    is told apart by the rest alone (`strategy is not None and not keras_fit`, the strategy made)."""
    if not isinstance(test, ast.BoolOp):
        return test
    kept = [value for value in test.values if _folded(value, literals) is _UNBOUND]
    if len(kept) == len(test.values) or not kept:
        return test
    return kept[0] if len(kept) == 1 else ast.copy_location(ast.BoolOp(test.op, kept), test)


def _folded(node: ast.expr, literals: dict):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return literals.get(node.id, _UNBOUND)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):  # an instance's flag
        return literals.get(f"{node.value.id}.{node.attr}", _UNBOUND)
    if isinstance(node, ast.Call):  # a call the interpreter answered (`isinstance(model, keras.Model)`)
        return literals.get(node, _UNBOUND)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        operand = _folded(node.operand, literals)
        return _UNBOUND if operand is _UNBOUND else not operand
    if isinstance(node, ast.BoolOp):  # decided by one operand that decides it, or by all of them
        operands = [_folded(value, literals) for value in node.values]
        decisive = isinstance(node.op, ast.Or)
        if any(operand is not _UNBOUND and bool(operand) is decisive for operand in operands):
            return decisive
        return _UNBOUND if _UNBOUND in operands else not decisive
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in _FOLDED_COMPARISONS:
        left, right = _folded(node.left, literals), _folded(node.comparators[0], literals)
        if left is _UNBOUND or right is _UNBOUND:
            return _UNBOUND
        return _FOLDED_COMPARISONS[type(node.ops[0])](left, right)
    if isinstance(node, _LITERAL_CONTAINERS):
        items = tuple(_folded(item, literals) for item in node.elts)
        return _UNBOUND if _UNBOUND in items else _Literals(items)
    return _UNBOUND


class _Literals(tuple):
    """The constants of a literal list, tuple or set: something only membership reads."""


def _member(item, container):
    if isinstance(container, _Literals) or (isinstance(container, str) and isinstance(item, str)):
        return item in container
    return _UNBOUND


def _negated(value):
    return value if value is _UNBOUND else not value


def contradicts(first: Iterable[Condition], second: Iterable[Condition]) -> bool:
    if not first or not second:  # most objects and most code are on no condition: nothing to compare
        return False
    held = dict(first)
    if any(held.get(text, polarity) is not polarity for text, polarity in second):
        return True
    return _refuted(first, held_in=second) or _refuted(second, held_in=held) or _pinned_apart(first, second)


class _Allowed(NamedTuple):
    """The literals a path's comparisons leave a subject (`x`, `args.run`): within ``required``
    (None: any value) and not in ``excluded``."""

    required: frozenset | None
    excluded: frozenset


def _pinned_apart(first: Iterable[Condition], second: Iterable[Condition]) -> bool:
    """Whether the comparisons with literals of the two paths leave some subject no value:
    `experiment == "residual"` cannot hold where `experiment in ["WDC"]` did."""
    one, other = _allowed_on(tuple(first)), _allowed_on(tuple(second))
    if one is None or other is None:  # a path that contradicts itself
        return True
    if len(other) < len(one):
        one, other = other, one
    for subject, allowed in one.items():
        theirs = other.get(subject)
        # values only ruled out leave others: a subject bounded on neither path is never left none
        if theirs is not None and (allowed.required or theirs.required) and not _admits(_joined(allowed, theirs)):
            return True
    return False


@lru_cache(maxsize=16384)
def _allowed_on(path: tuple[Condition, ...]) -> dict[str, _Allowed] | None:
    """Each subject's allowed literals on ``path``; None when some subject is left none."""
    allowed: dict[str, _Allowed] = {}
    for text, polarity in path:
        compared = _compared_literals(text)
        if compared is None:
            continue
        subject, literals = compared
        said = _Allowed(literals, frozenset()) if polarity else _Allowed(None, literals)
        allowed[subject] = _joined(allowed[subject], said) if subject in allowed else said
        if not _admits(allowed[subject]):
            return None
    return allowed


def _joined(one: _Allowed, other: _Allowed) -> _Allowed:
    required = one.required if other.required is None else (
        other.required if one.required is None else one.required & other.required)
    return _Allowed(required, one.excluded | other.excluded)


def _admits(allowed: _Allowed) -> bool:
    return allowed.required is None or bool(allowed.required - allowed.excluded)


@lru_cache(maxsize=4096)
def _compared_literals(text: str) -> tuple[str, frozenset] | None:
    """The name or flag (`args.run`) that `x == "a"` or `x in ["a", "b"]` compares, and the literals."""
    if "==" not in text and " in " not in text:
        return None  # most conditions are no such comparison: no parse for those
    try:
        test = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right = test.left, test.comparators[0]
    if not (isinstance(left, ast.Name) or isinstance(left, ast.Attribute) and isinstance(left.value, ast.Name)):
        return None
    if isinstance(test.ops[0], ast.Eq):
        items = [right]
    elif isinstance(test.ops[0], ast.In) and isinstance(right, _LITERAL_CONTAINERS):
        items = right.elts
    else:
        return None
    if not all(isinstance(item, ast.Constant) for item in items):
        return None
    try:
        return text_of(left), frozenset(item.value for item in items)
    except TypeError:  # an unhashable constant
        return None


def _refuted(conditions: Iterable[Condition], held_in) -> bool:
    """Whether a compound test among ``conditions`` (`strategy is not None and not keras_fit`)
    comes out the other way from what the tests ``held_in`` the other path decide."""
    known = None
    for text, polarity in conditions:
        test = _compound(text)
        if test is not None:
            known = known if known is not None else dict(held_in)
            truth = _truth(test, known)
            if truth is not None and truth is not polarity:
                return True
    return False


@lru_cache(maxsize=4096)
def _compound(text: str) -> ast.BoolOp | None:
    """The `and`/`or` of tests a condition's text spells, which the tests of another path can decide."""
    if " and " not in text and " or " not in text:
        return None  # most conditions are one plain test: skip the parse
    try:
        test = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    return test if isinstance(test, ast.BoolOp) else None


@per_node  # a tree ``_compound`` keeps is read at every path comparison
def _spoken_of(test: ast.expr) -> tuple[ast.expr, bool, str]:
    """``subject_of``, and the subject's text."""
    subject, held = subject_of(test)
    return subject, held, text_of(subject)


def _truth(test: ast.expr, known: dict[str, bool]) -> bool | None:
    """Whether ``test`` holds given the truth of the tests in ``known`` (text -> held); None
    where they do not decide it."""
    subject, held, text = _spoken_of(test)
    if isinstance(subject, ast.BoolOp):  # decided by one operand that decides it, or by all of them
        decisive = isinstance(subject.op, ast.Or)
        operands = [_truth(value, known) for value in subject.values]
        truth = decisive if decisive in operands else None if None in operands else not decisive
    else:
        truth = known.get(text)
        if truth is None and (folded := _folded(subject, {})) is not _UNBOUND:
            truth = bool(folded)
    return None if truth is None else truth is held


def in_terms_of(test: ast.expr, passed: dict[str, ast.expr]) -> ast.expr:
    """``test`` with each parameter replaced by what the call passed it (see ``passed_arguments``);
    the parts that name none are shared with ``test``, which stays as it is."""
    if isinstance(test, ast.Name):
        return passed.get(test.id, test)
    fields, changed = {}, False
    for name, value in ast.iter_fields(test):
        if isinstance(value, ast.AST):
            renamed = in_terms_of(value, passed)
        elif isinstance(value, list):
            renamed = [in_terms_of(item, passed) if isinstance(item, ast.AST) else item for item in value]
            renamed = value if all(new is old for new, old in zip(renamed, value)) else renamed
        else:
            renamed = value
        fields[name] = renamed
        changed = changed or renamed is not value
    return ast.copy_location(type(test)(**fields), test) if changed else test


def passed_arguments(call: ast.AST | None, positional: list[ast.arg], keyword_only: list[ast.arg],
                     outer: dict[str, ast.expr] | None) -> dict[str, ast.expr]:
    """What a call passes each parameter, where that is a name or an attribute (a literal is
    decided where it is tested), in the terms of the outermost caller (``outer``: what the caller's
    own parameters were passed). A test on such a parameter (`if strategy is not None and not
    keras_fit:`) then speaks of the caller's values, so tests in the caller can decide it."""
    if not isinstance(call, ast.Call):
        return {}
    passed = arguments_by_parameter(call, positional, keyword_only)
    return {name: _root_renamed(value, outer) if outer else value for name, value in passed.items()
            if dotted_name(value) is not None}


def _root_renamed(chain: ast.expr, outer: dict[str, ast.expr]) -> ast.expr:
    """`args.fit` where the caller's `args` was passed `options`: `options.fit`."""
    root = chain
    while isinstance(root, ast.Attribute):
        root = root.value
    return in_terms_of(chain, outer) if root.id in outer else chain


def describe_conditions(conditions: Iterable[Condition], spelled: dict[str, str]) -> str:
    """The path in words, each test as its code spells it (``spelled``: see ``passed_arguments``);
    `x != 'a'` is left out where `x == 'b'` also holds (an `elif` chain)."""
    kept = [(text, polarity) for text, polarity in dict.fromkeys((spelled.get(text, text), polarity)
                                                                  for text, polarity in conditions)
            if text not in _SCRIPT_GUARDS and not text.startswith(_EXISTENCE)]
    equalities = {condition: _equality(*condition) for condition in kept}
    pinned = {found[0] for found in equalities.values() if found is not None and found[1]}
    return " and ".join(_describe(text, polarity) for text, polarity in kept
                        if not ((found := equalities[(text, polarity)]) and not found[1] and found[0] in pinned))


def _equality(text: str, held: bool) -> tuple[str, bool] | None:
    """(subject, whether it equals the value) for a held or failed `subject == value` or `!=`."""
    try:
        test = ast.parse(text, mode="eval").body
    except SyntaxError:
        return None
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))
            and isinstance(test.comparators[0], ast.Constant)):
        return None
    return ast.unparse(test.left), held is isinstance(test.ops[0], ast.Eq)


def _describe(text: str, held: bool) -> str:
    """A condition as the code would spell it: `a not in b` rather than not `a in b`."""
    if held:
        return f"`{text}`"
    try:
        test = ast.parse(text, mode="eval").body
    except SyntaxError:
        return f"not `{text}`"
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and type(test.ops[0]) in _NEGATION:
        test.ops = [_NEGATION[type(test.ops[0])]()]
        return f"`{ast.unparse(test)}`"
    return f"not `{text}`"


def ends_flow(block: list[ast.stmt]) -> bool:
    return bool(block) and isinstance(block[-1], _FLOW_ENDS)


def owners_in(value) -> Iterator[Owner]:
    if isinstance(value, Owner):
        yield value
    elif isinstance(value, Alternatives):
        yield from (option for option in value.options if isinstance(option, Owner))


def _objects_in(value, path: tuple) -> Iterator:
    """Each object ``value`` (bound on ``path``) may be, with the path it is that one on."""
    if isinstance(value, (Owner, Instance, Loss)):
        yield value, path
    elif isinstance(value, Alternatives):
        for index, option in enumerate(value.options):
            yield option, (*path, *(value.paths[index] if value.paths else ()))


def join_values(values: list, paths: list | None = None):
    """What a name holds where paths meet. A scope on any path is the scope (the other path is a
    null context); one strategy stands for its alternatives (the one in use speaks for all);
    distinct objects (owners, instances of the file's classes, loss objects) stay apart as alternatives,
    and so do functions, each with the path it was bound on (``paths``: one per value); anything
    else: the last path's value."""
    paths = paths if paths is not None else [()] * len(values)
    known_paths = [(value, path) for value, path in zip(values, paths) if value is not None and value is not _UNBOUND
                   and not (isinstance(value, ast.Constant) and value.value is None)]
    known = [value for value, _ in known_paths]
    if not known:
        return None
    if all(isinstance(value, (Function, BoundMethod, ClassValue)) for value in known):
        chosen = {}
        for value, path in known_paths:
            chosen.setdefault(_identity(value), (value, path))
        if len(chosen) > 1:
            options = tuple(chosen.values())
            return Alternatives(tuple(value for value, _ in options), tuple(path for _, path in options))
    scopes = [value for value in known if isinstance(value, ScopeContext) and value.strategy is not None]
    if scopes:
        return scopes[-1]
    if any(isinstance(value, Strategy) for value in known) and all(
            isinstance(value, Strategy) or _stands_in_for_a_strategy(value) for value in known):
        # a project's own null strategy (`utils.NullStrategy()`) on the other paths: the real one speaks
        known = [value for value in known if isinstance(value, Strategy)]
    if all(isinstance(value, Strategy) for value in known):
        strategies = list(dict.fromkeys(known))
        chosen = next((s for s in reversed(strategies) if not s.is_default), strategies[-1])
        for other in strategies:
            if other is not chosen and other not in chosen.alternatives:
                chosen.alternatives.append(other)
        return chosen
    if all(isinstance(value, Sequence) for value in known):  # a list grown on some paths holds those items
        if all(value is known[0] for value in known):
            return known[0]  # one list on every path: its items keep their places
        if all(value.positional and len(value.items) == len(known[0].items) for value in known):
            # rows of one table (`table[name]`): whichever it is, its item at an index is one of theirs there
            return Sequence(tuple(join_values([value.items[index] for value in known])
                                  for index in range(len(known[0].items))), positional=True)
        keyed = {}
        for value in known:
            for index, item in enumerate(value.items):
                keyed.setdefault(id(item), (item, value.key_of(index)))
        return Sequence(tuple(item for item, _ in keyed.values()), tuple(key for _, key in keyed.values()))
    legacy = next((value for value in known if isinstance(value, ApiRef) and ".legacy." in value.name), None)
    if legacy is not None and all(isinstance(value, ApiRef) and value.name in (legacy.name, legacy.name.replace(
            ".legacy.", ".")) for value in known):
        # `optimizers.legacy.Adam` from 2.11 on, `optimizers.Adam` before: the same OptimizerV2 either way
        return legacy
    objects: dict = {}
    for value, path in known_paths:
        for option, option_path in _objects_in(value, path):
            objects.setdefault(option, option_path)
    if len(objects) > 1:
        return Alternatives(tuple(objects), tuple(objects.values()))
    if objects:
        return next(iter(objects))
    return known[-1]


def _identity(value):
    return (id(value.receiver), value.name) if isinstance(value, BoundMethod) else id(value)


def _stands_in_for_a_strategy(value) -> bool:
    return isinstance(value, Instance) and value.cls.method("scope") is not None


def join_layers(base, layers: list[dict], keep_base: bool, paths: list | None = None) -> None:
    """Write into ``base`` what each name may hold after the branches whose own bindings are
    ``layers`` (``keep_base``: a path that skips every branch, as a loop run zero times; ``paths``:
    each layer's branch conditions). Only names some branch bound are joined, so a branch costs
    what it binds, not what came before."""
    if not layers:
        return
    paths = paths if paths is not None else [()] * len(layers)
    for name in dict.fromkeys(name for layer in layers for name in layer):
        before = base.get(name, _UNBOUND)
        values = [layer.get(name, before) for layer in layers] + ([before] if keep_base else [])
        first = values[0]
        base[name] = first if all(value is first for value in values) else join_values(
            values, [path if name in layer else () for layer, path in zip(layers, paths)] + ([()] if keep_base else []))
