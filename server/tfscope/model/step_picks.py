"""Where the code picked the training step it calls: `train_fn = self.step_functions()` in the
scope, when a sibling of the picking function (`distributed_step_functions`, same parameters)
returns steps that go through `strategy.run`. Calling that sibling is the fix, so a step run in
the wrong context is reported at the pick."""

from __future__ import annotations

import ast
from typing import NamedTuple

from tfscope.astutil import text_of
from tfscope.model.object_methods import RUN_METHODS, STRATEGY_USES
from tfscope.model.values import ClassValue, Function, class_of

_FOLLOWED_CALLS = 3  # how deep "goes through `run`" follows the helpers a step calls
_UNSEEN = "<unseen>"  # what a step tfscope cannot name is (no function is called that)


class StepPick(NamedTuple):
    call: ast.Call  # the call of the picking function
    picker: str
    counterpart: str  # the sibling that returns steps run through `strategy.run`


class StepPicks:

    def step_pick(self) -> StepPick | None:
        """The pick behind the innermost call on the stack that calls a name bound by a pick (a
        step run by `strategy.run` needs none)."""
        if self.replica is not None or self.external_entry is not None or len(self.frames) != len(self.call_stack) + 1:
            return None
        for index in range(len(self.call_stack) - 1, -1, -1):
            call = self.call_stack[index]
            if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
                continue
            frame, name = self.frames[index], call.func.id
            running = self.frames[index + 1].function  # what the call runs on this path
            if running is None or running.node.name == name:
                continue  # a function called by its own name: nothing picked it
            for value in self._assigned_before(frame.key, name, call.lineno):
                pick = _pick_by(frame, value, running) if isinstance(value, ast.Call) else None
                if pick is not None:
                    return pick
        return None

    def _assigned_before(self, code: ast.AST, name: str, line: int) -> list[ast.AST]:
        """The values assigned to ``name`` in ``code``'s own body before ``line``, the latest first."""
        assignments = self.assignments_in.get(id(code))
        if assignments is None:
            assignments = self.assignments_in[id(code)] = _assignments(code)
        earlier = sorted((found for found in assignments.get(name, ()) if found[0] < line), key=lambda found: -found[0])
        return [value for _, value in earlier]


def _assignments(code: ast.AST) -> dict[str, list]:
    """Name -> (line, value) of each assignment to it in ``code``'s own body."""
    found: dict[str, list] = {}
    for node in _own_nodes(code):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for name in _bound_names(target):
                    found.setdefault(name, []).append((node.lineno, node.value))
    return found


def _bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for item in target.elts for name in _bound_names(item)]
    return []


def _pick_by(frame, picking_call: ast.Call, running: Function) -> StepPick | None:
    """The pick, when the function the call runs on this path is one of the steps the picking
    call's function returns (another assignment, on another path, may have bound the name)."""
    picker, siblings = _callee_and_siblings(frame, picking_call.func)
    if picker is None or not any(step is running.node for step in _returned_steps(picker, siblings)):
        return None
    receivers = _strategy_receivers(frame.module)
    if _steps_go_through_run(picker, siblings, receivers) is not False:
        return None
    counterparts = [sibling for sibling in siblings.values()
                    if sibling is not picker and _parameters(sibling) == _parameters(picker)
                    and _steps_go_through_run(sibling, siblings, receivers)]
    if len(counterparts) != 1:
        return None
    return StepPick(picking_call, picker.node.name, counterparts[0].node.name)


def _callee_and_siblings(frame, func: ast.AST) -> tuple[Function | None, dict]:
    """The project function a pick calls, and the functions defined beside it (its class's
    methods, or its module's functions)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        cls = class_of(frame.lookup(func.value.id))
        if cls is not None:
            methods = _methods(cls)
            return methods.get(func.attr), methods
    if isinstance(func, ast.Name):
        function = frame.lookup(func.id)
        if isinstance(function, Function) and function.closure is not None and function.owner_class is None:
            return function, {key: value for key, value in function.closure.env.items()
                              if isinstance(value, Function) and value.closure is function.closure}
    return None, {}


def _methods(cls: ClassValue) -> dict:
    methods: dict = {}
    for base in reversed(cls.bases):
        methods.update(_methods(base))
    methods.update(cls.methods)
    return methods


def _parameters(function: Function) -> list[str]:
    arguments = function.node.args
    return [argument.arg for argument in (*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs)]


def _steps_go_through_run(function: Function, siblings: dict, receivers: frozenset) -> bool | None:
    """True when every step the function returns goes through `strategy.run` (a function it
    returns, wrapped in `tf.function(...)` or not, calls `run`, itself or in a helper it calls),
    False when none does, None when it returns none tfscope can see, or both kinds."""
    steps = _returned_steps(function, siblings)
    through_run = {_goes_through_run(step, siblings, receivers, _FOLLOWED_CALLS) for step in steps}
    return through_run.pop() if len(through_run) == 1 else None


def _returned_steps(function: Function, siblings: dict) -> list[ast.AST]:
    if function.external:
        return []
    nested = {node.name: node for node in function.node.body
              if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
    steps: list[ast.AST] = []
    for node in _own_nodes(function.node):
        if isinstance(node, ast.Return) and node.value is not None:
            for item in _callables(node.value, function.node, set()):
                step = nested.get(item) or (siblings[item].node if item in siblings else None)
                if step is None:
                    return []  # a step tfscope cannot see: no claim about it
                steps.append(step)
    return steps


def _callables(value: ast.AST, code: ast.AST, followed: set) -> list[str]:
    """The names of the functions an expression of ``code`` holds: `self.step`, `step`,
    `tf.function(step)`, in tuples, conditional expressions and the locals assigned them."""
    if isinstance(value, (ast.Tuple, ast.List)):
        return [name for item in value.elts for name in _callables(item, code, followed)]
    if isinstance(value, ast.IfExp):
        return [*_callables(value.body, code, followed), *_callables(value.orelse, code, followed)]
    if isinstance(value, ast.Call) and len(value.args) == 1 and not value.keywords:  # `tf.function(step)`
        return _callables(value.args[0], code, followed)
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
        return [value.attr]
    if isinstance(value, ast.Name):
        assigned = [node.value for node in _own_nodes(code) if isinstance(node, ast.Assign)
                    and any(isinstance(target, ast.Name) and target.id == value.id for target in node.targets)]
        if not assigned or value.id in followed:
            return [value.id]
        followed.add(value.id)
        return [name for given in assigned for name in _callables(given, code, followed)]
    return [_UNSEEN]


def _goes_through_run(step: ast.AST, siblings: dict, receivers: frozenset, depth: int) -> bool:
    for node in ast.walk(step):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in RUN_METHODS and text_of(func.value) in receivers:
            return True
        helper = siblings.get(_sibling_called(func)) if depth > 1 else None
        if helper is not None and helper.node is not step and _goes_through_run(helper.node, siblings, receivers,
                                                                                depth - 1):
            return True
    return False


def _sibling_called(func: ast.AST) -> str | None:
    """`helper` for `self.helper(...)` (a method beside the step) or `helper(...)` (a function beside it)."""
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _strategy_receivers(module: ast.AST) -> frozenset:
    """The expressions the module uses as a strategy besides calling `run` on them
    (`self.strategy.scope()`, `strategy.reduce(...)`): a `.run(` on one of them is `Strategy.run`."""
    return frozenset(text_of(node.value) for node in ast.walk(module)
                     if isinstance(node, ast.Attribute) and node.attr in STRATEGY_USES - RUN_METHODS)


def _own_nodes(code: ast.AST):
    """The nodes of a function's (or module's) own body, not those of the functions and classes it defines."""
    pending = list(ast.iter_child_nodes(code))
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
