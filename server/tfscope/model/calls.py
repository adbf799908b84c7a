"""Calls: what a callee is (a project function, a class, an API, a method, a value tfscope cannot
see) and where each goes; running the project's own functions is ``functions``."""

from __future__ import annotations

import ast

from tfscope.astutil import dotted_name
from tfscope.model import loss_reduction
from tfscope.model.context import Frame
from tfscope.model.entities import Owner, Strategy
from tfscope.model.facts import HandedWithStrategy
from tfscope.model.functions import shifts_a_strategy
from tfscope.model.joins import contradicts, join_values
from tfscope.model.object_methods import STRATEGY_EVIDENCE
from tfscope.model.values import (
    ATTRIBUTE_BAGS,
    Alternatives,
    ApiRef,
    BoundMethod,
    ClassValue,
    Function,
    Instance,
    Loss,
    MadeInScope,
    Omitted,
    ProjectRef,
    ScopeContext,
    Sequence,
    Tensor,
    attribute_bag,
    is_text,
    is_unknown,
    tensor_producers,
)
from tfscope.resolve.catalog import (
    VARIABLE_OWNERS,
    Api,
)

# What only an optimizer does: a step, whoever the optimizer is.
_STEP_METHODS = frozenset({"apply_gradients", "minimize"})
# Path builders whose result ends as their last argument does: the file name decides the format.
_PATH_BUILDERS = frozenset({
    "os.path.join", "os.path.abspath", "os.path.expanduser", "os.path.normpath", "os.path.realpath", "os.fspath",
    "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "pathlib.WindowsPath", "tensorflow.io.gfile.join",
})
# `pathlib` methods whose result ends as their last argument does.
_PATH_METHODS = frozenset({"joinpath", "with_name", "with_suffix"})
# Methods that put more objects in a list, dict or set.
_GROWING_METHODS = frozenset({"append", "extend", "update", "add", "insert", "setdefault"})

# What a trainer handed a strategy trains under it.
_HANDED_WITH_STRATEGY = frozenset({Api.MODEL, Api.OPTIMIZER, Api.METRIC, Api.LOADED_MODEL})


class Calls:

    # --------------------------------------------------------------- calls

    def eval_call(self, node: ast.Call, frame: Frame):
        func = node.func
        receiver = None
        if isinstance(func, ast.Attribute):
            receiver = self.eval(func.value, frame)
            callee = None if isinstance(receiver, Alternatives) else self.method_of(receiver, func, frame)
        else:
            callee = self.eval(func, frame)
        args = [self.eval(arg.value if isinstance(arg, ast.Starred) else arg, frame) for arg in node.args]
        kwargs = {keyword.arg: self.eval(keyword.value, frame) for keyword in node.keywords}
        if isinstance(func, ast.Name) and func.id == "dict" and not frame.binds("dict"):
            return _built_dict(args, kwargs)
        inherited = self.inherited_method(func, frame)
        if inherited is not None:
            return self.call_function(inherited[0], node, args, kwargs, self_value=inherited[1])
        if callee is None and _unknown_or_none(receiver) and isinstance(func, ast.Attribute) and func.attr in STRATEGY_EVIDENCE:
            strategy = self.strategy_by_use(func.value, frame)
            callee = BoundMethod(strategy, func.attr) if strategy is not None else None
        if (isinstance(receiver, Sequence) and isinstance(func, ast.Attribute) and func.attr in _GROWING_METHODS
                and isinstance(func.value, (ast.Name, ast.Attribute))):
            return self.grow_container(func.value, receiver, [*args, *kwargs.values()], frame)
        if isinstance(receiver, Alternatives):
            return self.call_each(receiver, lambda option: self.method_of(option, func, frame), node, args, kwargs, frame)
        if isinstance(callee, Alternatives):
            return self.call_each(callee, lambda option: option, node, args, kwargs, frame)
        return self.dispatch(callee, node, args, kwargs, frame)

    def method_of(self, receiver, func: ast.Attribute, frame: Frame):
        callee = self.attribute_of(receiver, func, frame)
        if callee is None and isinstance(receiver, Instance) and not receiver.cls.lineage_known:
            self.note_unseen_method(receiver)  # a method of a base tfscope cannot see
        return callee

    def call_each(self, alternatives: Alternatives, callee_of, node: ast.Call, args: list, kwargs: dict, frame: Frame):
        """One call per object a name may hold, each under the path it exists on."""
        results = []
        for index, option in enumerate(alternatives.options):
            path = alternatives.path_of(index)
            if contradicts(path, self.conditions):
                continue
            mark = self.assume_all(path)
            results.append(self.dispatch(callee_of(option), node, args, kwargs, frame))
            self.forget(mark)
        return join_values(results)

    def grow_container(self, target: ast.AST, container: Sequence, values: list, frame: Frame) -> None:
        """`metrics.update({...})`, `models.append(m)`: the container holds these too from now on."""
        added = [pair for value in values for pair in (
            [(item, value.key_of(index)) for index, item in enumerate(value.items)]
            if isinstance(value, Sequence) else [(value, None)])]
        self.add_items(target, container, added, frame)

    def add_items(self, target: ast.AST, container: Sequence, added: list, frame: Frame) -> None:
        keys = tuple(container.key_of(index) for index in range(len(container.items))) + tuple(k for _, k in added)
        self.bind(target, Sequence(container.items + tuple(item for item, _ in added), keys), frame)

    def inherited_method(self, func: ast.AST, frame: Frame):
        """`super().__init__(...)` in a method: the base class's method, on the same instance."""
        if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Call)
                and isinstance(func.value.func, ast.Name) and func.value.func.id == "super"):
            return None
        function = frame.function
        cls = function.owner_class if function is not None else None
        parameters = function.node.args.posonlyargs + function.node.args.args if cls is not None else []
        if not parameters:
            return None
        method = next((base.method(func.attr) for base in cls.bases if base.method(func.attr)), None)
        return (method, frame.env.get(parameters[0].arg)) if method is not None else None

    def strategy_by_use(self, expr: ast.AST, frame: Frame) -> Strategy | None:
        """A value of unknown origin used as only a strategy is used (`distribution.scope()`):
        one strategy from now on wherever that expression is read."""
        dotted = dotted_name(expr)
        if dotted is None:
            return None
        strategy = self.symbolic_strategy(dotted)
        if isinstance(expr, ast.Attribute):
            holder = self.eval(expr.value, frame)
            if isinstance(holder, (Instance, Owner)):
                holder.attrs[expr.attr] = strategy
                return strategy
        defining = frame
        while defining.parent is not None and dotted not in defining.env:
            defining = defining.parent
        (defining if dotted in defining.env else frame).env[dotted] = strategy
        return strategy

    def dispatch(self, callee, node: ast.Call, args: list, kwargs: dict, frame: Frame):
        if _builds_path(callee, node.func) and args and is_text(args[-1]):
            return args[-1]
        if isinstance(callee, BoundMethod):
            return self.call_method(callee.receiver, callee.name, node, args, kwargs, frame)
        if isinstance(callee, ApiRef):
            return self.call_api(callee.name, node, args, kwargs)
        if isinstance(callee, ProjectRef) and callee.dotted in ATTRIBUTE_BAGS:
            return attribute_bag(callee.dotted, kwargs)
        callee = self.resolved(callee)
        if isinstance(callee, Function):
            return self.call_function(callee, node, args, kwargs)
        if isinstance(callee, ClassValue):
            return self.instantiate(callee, node, args, kwargs)
        if isinstance(callee, Owner):
            return self.call_owner(callee, node, args)
        if isinstance(callee, Loss):
            return self.call_loss(callee, node)
        if isinstance(callee, Instance) and callee.cls.method("__call__") is not None:
            return self.call_method(callee, "__call__", node, args, kwargs, frame)
        return self.call_unknown(callee, node, args, kwargs)

    def call_unknown(self, callee, node: ast.Call, args: list, kwargs: dict):
        name = _callee_name(node.func)
        if name == "compile" and isinstance(node.func, ast.Attribute):
            self.owner_compile(None, "compile", node, args, kwargs)
        elif name in _STEP_METHODS and isinstance(node.func, ast.Attribute):
            self.report_step(None, name, node)  # an optimizer tfscope cannot see (`self.optimizer` set elsewhere)
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
        self.meet_handed_with_strategy(name, node, [*args, *kwargs.values()])
        if name in self.factories["strategy"]:
            return self.new_strategy("unknown", node)
        strategy_arg = next((arg for arg in [*args, *kwargs.values()] if isinstance(arg, Strategy)), None)
        if name in self.factories["scope"]:
            return ScopeContext(strategy_arg or self.symbolic_strategy(f"{name}()"))
        if strategy_arg is not None and "scope" in name.lower():
            # an unseen helper like tensorflow/models' `get_strategy_scope(strategy)`
            return ScopeContext(strategy_arg)
        if name in self.factories["model"]:
            return self.new_owner(Api.MODEL, f"{name}()", node)
        producers = tensor_producers(args)
        if producers:
            return Tensor(producers)
        current = self.current()
        if current is not None and not current.is_default and self.replica is None:
            return MadeInScope(self.unregistered_owner(Api.MODEL, f"{name}()", node))
        return None

    def meet_handed_with_strategy(self, name: str, node: ast.Call, values: list) -> None:
        """Built objects handed to code tfscope cannot see together with a strategy (a trainer from
        another package) are used under it there; that code can no longer re-create them in its scope."""
        strategy = next((v for v in values if isinstance(v, Strategy) and not v.is_default), None)
        if strategy is None:
            return
        built = [owner for owner in self.feasible(values) if owner.kind in _HANDED_WITH_STRATEGY]
        self.meet(built, strategy, self.local_node(node),
                  f"handed to `{name}(...)` together with {strategy.describe()}", "handed over")
        if built:
            self.report(HandedWithStrategy(self.local_node(node), tuple(built), strategy), located_here=True)

    def mark_handed_over(self, value) -> None:
        """A strategy passed to code tfscope cannot see is assumed used there; a function handed
        over by the program's top level with no scope open (`app.run(main)`) is an entry point that
        runs outside every scope."""
        if isinstance(value, Strategy):
            value.mark_used()
        elif (isinstance(value, Function) and not self.call_stack and not self.scopes
              and self.root.context_known and self.root.node is self.tree):
            self.entry_points.add(value.node)
        elif isinstance(value, Sequence):
            for item in value.items:
                self.mark_handed_over(item)
        elif isinstance(value, Alternatives):
            for option in value.options:
                self.mark_handed_over(option)

    # Local functions and classes

    def builds_text_only(self, node: ast.expr, frame: Frame) -> bool:
        """Whether evaluating ``node`` makes nothing but a string or path: constants, names,
        arithmetic and f-strings, and calls of path builders (`pathlib.Path(".", "models")`)."""
        for part in ast.walk(node):
            if isinstance(part, ast.Call):
                func = part.func
                callee = None if isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS else self.eval(func, frame)
                if not _builds_path(callee, func):
                    return False
            elif not isinstance(part, (ast.expr_context, ast.Constant, ast.Name, ast.Attribute, ast.BinOp,
                                       ast.operator, ast.JoinedStr, ast.FormattedValue, ast.keyword)):
                return False
        return True

    def instantiate(self, cls: ClassValue, node: ast.Call, args: list, kwargs: dict):
        init = cls.method("__init__")
        if init is not None and shifts_a_strategy(init, args, kwargs):
            self.call_function(init, node, args, kwargs)  # hands the arguments over, runs nothing
            return None
        if cls.kind in VARIABLE_OWNERS:
            instance = self.new_owner(cls.kind, cls.node.name, node)
            instance.lazy = cls.kind is Api.MODEL and not cls.built_at_construction
            instance.optimizer_v2 = cls.kind is Api.OPTIMIZER and cls.optimizer_v2
            instance.weightless = (cls.kind is Api.LAYER and cls.holds_no_variables
                                   or cls.kind is Api.MODULE and cls.constructs_no_variables)
            instance.attrs["__class__"] = cls
            if cls.kind is Api.MODEL:
                self.meet_distributed_parts(instance, node, [*args, *kwargs.values()])
            self.meet_handed_variables(instance, node, [*args, *kwargs.values()])
        elif cls.kind is Api.LOSS:
            reduction = loss_reduction.of_subclass(cls, node)
            if reduction is None:
                instance = Loss(node, cls.node.name, default_reduction=False, condition=tuple(self.conditions),
                                cls=cls)
            else:
                # the fix belongs in the class unless the reduction is passed here, or the class is not this file's
                site = reduction.site if not cls.external or _within(node, reduction.site) else node
                module = self.frame.module if site is node else _module_defining(cls, site)
                # the code that picked the class, when it is in the module the finding is in
                picker = _picker(node.func, cls.node.name) if module is self.frame.module else None
                instance = Loss(node, cls.node.name, reduction.default, site, tuple(self.conditions),
                                picked_by=picker, cls=cls, sited_here=self.external_entry is None,
                                reduction_module=module, made_in=self.frame.module)
        else:
            instance = Instance(cls, condition=tuple(self.conditions))
        if init is not None:
            entered = self.scopes_entered
            self.call_function(init, node, args, kwargs, self_value=instance)
            if isinstance(instance, Owner) and not self.scopes and self.scopes_entered > entered:
                # its constructor enters a strategy's scope itself (an agent that makes its own strategy):
                # what it makes is judged where it makes it, not where the instance is created
                instance.weightless = True
        else:
            for value in [*args, *kwargs.values()]:
                self.mark_handed_over(value)
        if (cls.kind is Api.MODEL and isinstance(instance, Owner)
                and not any(held.makes_weights() for held in instance.holds()) and cls.model_without_variables):
            # a stub or a wrapper of plain ops, handed nothing with weights: no variable to place
            # (a wrapper of models made elsewhere records its strategy for them: judged as before)
            instance.weightless = True
        if cls.kind is Api.LAYER and isinstance(instance, Owner):
            # a layer whose weights, and its sublayers', appear at its first call, wherever that runs
            instance.lazy = cls.builds_at_first_call and all(
                held.lazy and not held.built for held in instance.holds() if held.makes_weights())
        return instance


def _picker(func: ast.expr, class_name: str) -> str | None:
    """The code of a callee that picks a class without naming it (`LOSSES[args.loss]`, `loss_cls`)."""
    named = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else None
    return None if named == class_name else ast.unparse(func)


def _builds_path(callee, func: ast.AST) -> bool:
    """`os.path.join(...)`, `pathlib.Path(...)` from the standard library, the builtin `str(...)`,
    or a path's `joinpath(...)`."""
    if isinstance(callee, ApiRef):
        return callee.name in _PATH_BUILDERS
    if isinstance(callee, ProjectRef):
        return f"{callee.module}.{callee.name}".rstrip(".") in _PATH_BUILDERS
    return callee is None and (
        (isinstance(func, ast.Name) and func.id == "str")
        or (isinstance(func, ast.Attribute) and func.attr in _PATH_METHODS))


def _callee_name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _unknown_or_none(value) -> bool:
    """Unknown, or a `None` placeholder (`self.strategy = None` in `__init__`, set from outside later)."""
    return is_unknown(value) or (isinstance(value, ast.Constant) and value.value is None and not isinstance(value, Omitted))


def _within(call: ast.Call, node: ast.AST) -> bool:
    return any(child is node for child in ast.walk(call))


def _module_defining(cls: ClassValue, node: ast.AST) -> ast.AST | None:
    """The module whose code holds ``node``, a part of a method of ``cls`` or of one of its bases."""
    pending = [cls]
    while pending:
        current = pending.pop()
        for method in current.methods.values():
            if method.closure is not None and _within(method.node, node):
                return method.closure.module
        pending.extend(current.bases)
    return None


def _built_dict(args: list, kwargs: dict) -> Sequence:
    """`dict(student=a, teacher=b)`, also over a mapping it copies (`dict(base, extra=c)`): what the
    `{...}` literal would hold."""
    copied = [value for value in [*args[:1], kwargs.get(None)] if isinstance(value, Sequence)]
    items = [(item, mapping.key_of(index)) for mapping in copied for index, item in enumerate(mapping.items)]
    items += [(value, (name, name, True)) for name, value in kwargs.items() if name is not None]
    return Sequence(tuple(item for item, _ in items), tuple(key for _, key in items))
