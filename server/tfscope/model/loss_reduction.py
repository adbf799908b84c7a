"""Which reduction a Keras loss object ends up with, read from its constructor call and, for a
loss class of the user's own, from that class's ``__init__`` (parsed, never run).

Keras 2 checks the reduction in ``Loss.__call__`` (``Loss._get_reduction``,
tensorflow/python/keras/losses.py and tf_keras/losses.py): ``AUTO`` and ``SUM_OVER_BATCH_SIZE``
raise whenever ``tf.distribute.has_strategy()``, unless ``compile`` wrapped the loss
(``LossesContainer._get_loss_object`` sets ``_allow_sum_over_batch_size``). A class that
overrides ``__call__`` skips that check.
"""

from __future__ import annotations

import ast
from typing import NamedTuple

from tfscope.astutil import arguments_by_parameter, text_of

_DEFAULT_REDUCTIONS = ("auto", "sum_over_batch_size")


class Reduction(NamedTuple):
    default: bool  # AUTO / SUM_OVER_BATCH_SIZE, the reductions Keras rejects under a strategy
    site: ast.AST  # where the fix belongs: the keyword, the parameter default, the `super().__init__`


def is_default_reduction(node: ast.AST | None) -> bool:
    """A reduction expression (None when not given: the Keras default, `AUTO`)."""
    return node is None or any(name in text_of(node).lower() for name in _DEFAULT_REDUCTIONS)


def of_api_loss(call: ast.Call) -> Reduction:
    keyword = _keyword(call, "reduction")
    return Reduction(is_default_reduction(keyword), keyword if keyword is not None else call)


def of_subclass(cls, call: ast.Call) -> Reduction | None:
    """The reduction an instance of the user's loss class ``cls`` gets from ``call``; None when the
    code does not say (the value comes from elsewhere, or the class skips Keras's check)."""
    if cls.method("__call__") is not None:
        return None
    init = cls.methods.get("__init__")
    if init is None:
        if cls.bases:
            return of_subclass(cls.bases[0], call) if len(cls.bases) == 1 else None
        return of_api_loss(call)
    if cls.bases:  # its `super().__init__` is another class of the user's: not followed
        return None
    base_init = _base_init_call(init.node)
    if base_init is None:
        return None
    passed = _keyword(base_init, "reduction")
    if passed is None:
        forwarded = _forwards_kwargs(base_init) and _keyword(call, "reduction")
        if forwarded:
            return Reduction(is_default_reduction(forwarded), forwarded)
        return Reduction(True, base_init)
    parameter = _parameter_named(init.node, passed)
    if parameter is None:
        return Reduction(is_default_reduction(passed), passed)
    given = _argument_for(init.node, parameter, call)
    if given is not None:
        return Reduction(is_default_reduction(given), given)
    default = _default_of(init.node, parameter)
    if default is None or (isinstance(default, ast.Constant) and default.value is None):
        return None
    return Reduction(is_default_reduction(default), default)


def _keyword(call: ast.Call, name: str) -> ast.AST | None:
    return next((keyword.value for keyword in call.keywords if keyword.arg == name), None)


def _base_init_call(function: ast.FunctionDef) -> ast.Call | None:
    """`super().__init__(...)`, `super(Cls, self).__init__(...)` or `Base.__init__(self, ...)`."""
    for node in ast.walk(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__":
            receiver = node.func.value
            if isinstance(receiver, ast.Name) or (
                    isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name)
                    and receiver.func.id == "super"):
                return node
    return None


def _forwards_kwargs(call: ast.Call) -> bool:
    return any(keyword.arg is None for keyword in call.keywords)


def _parameter_named(function: ast.FunctionDef, value: ast.AST) -> ast.arg | None:
    if not isinstance(value, ast.Name):
        return None
    arguments = function.args
    return next((p for p in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
                 if p.arg == value.id), None)


def _argument_for(function: ast.FunctionDef, parameter: ast.arg, call: ast.Call) -> ast.AST | None:
    positional = [*function.args.posonlyargs, *function.args.args][1:]  # after `self`
    return arguments_by_parameter(call, positional, function.args.kwonlyargs).get(parameter.arg)


def _default_of(function: ast.FunctionDef, parameter: ast.arg) -> ast.AST | None:
    arguments = function.args
    positional = [*arguments.posonlyargs, *arguments.args]
    if parameter in positional:
        offset = len(positional) - len(arguments.defaults)
        index = positional.index(parameter)
        return arguments.defaults[index - offset] if index >= offset else None
    index = arguments.kwonlyargs.index(parameter)
    return arguments.kw_defaults[index]
