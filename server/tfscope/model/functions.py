"""Running the project's own functions: a frame per call, its parameters bound to what the call
passed, and where what the call made is reported (a factory's product is sited at its call)."""

from __future__ import annotations

import ast

from tfscope.astutil import text_of
from tfscope.model.context import MAX_CALL_DEPTH, MAX_INLINED_STATEMENTS, MAX_NESTED_RUNS, Frame
from tfscope.model.entities import Owner, Strategy
from tfscope.model.joins import join_values, owners_in, passed_arguments
from tfscope.model.values import ClassValue, Function, Instance, Omitted, ScopeContext, Sequence, Tensor, is_text


class FunctionCalls:

    def call_function(self, function: Function, node: ast.Call, args: list, kwargs: dict, self_value=None):
        self.note_run(function, self_value)
        if (self.runs_again(function, args, kwargs) or len(self.call_stack) >= MAX_CALL_DEPTH
                or self.inlined_statements > MAX_INLINED_STATEMENTS
                or shifts_a_strategy(function, args, kwargs)):
            for value in [*args, *kwargs.values()]:
                self.mark_handed_over(value)
            return None
        frame = Frame({}, parent=function.closure, function=function, scope_depth_at_entry=len(self.scopes),
                      loop_depth_at_entry=self.loop_depth, key=function.node, conditions_at_entry=len(self.conditions))
        self.bind_parameters(function, frame, args, kwargs, self_value, call=node)
        into_another_module = function.external or (
            function.closure is not None and function.closure.module is not self.frame.module)
        frame.literal_arguments = _literal_arguments(node, frame, self.frame, function, into_another_module)
        owners_before_call = len(self.model.owners)
        self.call_stack.append(node)
        self.active_functions.append((function, args, kwargs))
        entry = self.external_entry
        if function.external and entry is None:
            self.external_entry = (node, self.statement, self.frame.key)
            self.ran_external_code = True
        self.frames.append(frame)
        try:
            self.exec_block(function.node.body, frame)
        finally:
            self.frames.pop()
            self.active_functions.pop()
            self.call_stack.pop()
            self.external_entry = entry
        if function.is_contextmanager:
            return frame.yielded or ScopeContext(None)
        result = join_values([value for value, _ in frame.returns], [path for _, path in frame.returns])
        self.resite_returned(result, frame, node, function, self.model.owners[owners_before_call:])
        return result

    def runs_again(self, function: Function, args: list, kwargs: dict) -> bool:
        """Whether running ``function`` now would run it inside its own run: recursion, which is
        not followed. A run given other strings than the one under way (`build_from_config("loss",
        ...)` inside `build_from_config("model", ...)`) is another use of a factory, followed once."""
        runs = [_texts_passed(*passed) for active, *passed in self.active_functions if active is function]
        if not runs:
            return False
        texts = _texts_passed(args, kwargs)
        return len(runs) >= MAX_NESTED_RUNS or not any(texts) or texts in runs

    def resite_returned(self, value, callee: Frame, call: ast.AST, function: Function, made_by_call: list) -> None:
        """A factory's product is reported (and fixed) where the caller calls the factory, unless
        it already met a strategy inside the function: then the fix belongs there. So are the
        layers the call made for a functional product (in it or in its block helpers)."""
        values = value.items if isinstance(value, Sequence) else (value,)
        made = {id(owner) for owner in made_by_call}
        # a call in another module's code (a trainer calling the factory it was handed) is sited
        # where this file enters that code
        site, statement, key = self.external_entry or (call, self.statement, self.frame.key)
        # a helper returning Keras tensors made its layer calls for the caller (`encode(feature)`)
        made_here = (owner for item in values
                     for owner in (item.producers if isinstance(item, Tensor) else owners_in(item)))
        for owner in made_here:
            if owner.site_frame is callee and not owner.meetings:
                for part in owner.parts:
                    if id(part) in made and not part.meetings:
                        part.site, part.statement, part.site_frame, part.key = site, statement, self.frame, key
                owner.site, owner.statement, owner.site_frame = site, statement, self.frame
                owner.key, owner.name = key, ""
                owner.label = f"{function.node.name}()"

    def resite_to_caller_of(self, owner: Owner, strategy: Strategy) -> tuple:
        """Site an object made down a call chain at the call that led to it from the innermost
        caller naming ``strategy``: the fix (entering its scope) belongs there. Returns the path
        conditions in that caller (the callee's own, on its parameters, mean nothing there)."""
        caller_index = next((index for index in range(len(self.frames) - 2, -1, -1)
                             if strategy.names.get(self.frames[index].key)), None)
        if caller_index is None or self.external_entry is not None:
            return tuple(self.conditions)
        caller, callee = self.frames[caller_index], self.frames[caller_index + 1]
        site = self.call_stack[caller_index]
        made_below = {id(frame) for frame in self.frames[caller_index + 1:]}
        for made in (owner, *owner.parts):
            if made is owner or id(made.site_frame) in made_below:
                made.site, made.statement, made.site_frame, made.key = site, caller.statement, caller, caller.key
                made.condition = made.condition[:callee.conditions_at_entry]
        owner.name, owner.label = "", f"{text_of(site.func) if isinstance(site, ast.Call) else text_of(site)}()"
        return tuple(self.conditions[:callee.conditions_at_entry])

    def note_run(self, function: Function, self_value) -> None:
        """Record that ``function`` ran, and on an instance of which class (see ``methods_run``)."""
        self.called_nodes.add(function.node)
        cls = self_value.cls if isinstance(self_value, Instance) else (
            self_value.attrs.get("__class__") if isinstance(self_value, Owner) else None)
        if cls is not None:
            self.methods_run.add((id(cls), function.node))

    def bind_parameters(self, function: Function, frame: Frame, args: list, kwargs: dict, self_value,
                        call: ast.AST | None = None) -> None:
        """``call``: the call being run, None for a function nobody calls (any argument may come)."""
        parameters = function.node.args
        receiver, positional = _receiver_and_positional(function)
        values = list(args)
        if receiver is not None:
            frame.env[receiver.arg] = self_value
        defaults = dict(zip(reversed(positional), reversed(parameters.defaults)))
        defaults.update(zip(parameters.kwonlyargs, parameters.kw_defaults))
        every_argument_seen = isinstance(call, ast.Call) and not _unpacks(call)
        for index, parameter in enumerate([*positional, *parameters.kwonlyargs]):
            given = index < len(values) and index < len(positional)
            value = values[index] if given else kwargs.get(parameter.arg)
            omitted = not given and parameter.arg not in kwargs
            default = defaults.get(parameter)
            if value is None and omitted and _is_literal(default):
                value = default  # the default is a literal: its value is known
            elif value is None and omitted and _is_reference(default) and function.closure is not None:
                # a name the definition's own module binds (`registry=REGISTRY`); a call would have
                # run once, when the `def` ran, so it is not run again here
                value = self.eval(default, function.closure)
            elif value is None and omitted and every_argument_seen and _is_none(default):
                value = Omitted()
            frame.env[parameter.arg] = self.parameter_value(parameter, value, frame)
        frame.passed = self.passed_to(function, call, positional, parameters.kwonlyargs)

    def parameter_value(self, parameter: ast.arg, value, frame: Frame):
        if value is None and parameter.annotation is not None:
            value = self.annotated_instance(parameter.annotation, frame)
        if value is None and (
            "strategy" in parameter.arg.lower()
            or (parameter.annotation is not None and "Strategy" in text_of(parameter.annotation))
        ):
            value = self.symbolic_strategy(parameter.arg)
        if isinstance(value, Strategy):
            value.name_in(frame.key, parameter.arg)
        return value

    def annotated_instance(self, annotation: ast.expr, frame: Frame) -> Instance | None:
        """An instance of the plain class of the project a parameter is annotated with (`b: ModelBuild`):
        what one function puts in it (`b.model = ...`), the next one it is handed to reads. A Keras
        or TensorFlow class is not one: its variables are what its creation made."""
        if not isinstance(annotation, (ast.Name, ast.Attribute)):
            return None
        cls = self.eval(annotation, frame)
        if isinstance(cls, ClassValue) and cls.kind is None and not cls.attribute_bag:
            return Instance(cls)
        return None

    def passed_to(self, function: Function, call: ast.AST | None, positional: list[ast.arg],
                  keyword_only: list[ast.arg]) -> dict | None:
        """What ``call`` passes the parameters of ``function`` (see ``joins.passed_arguments``), and
        what the call running its enclosing function passed the names it reads from there; a name
        the body binds again drops out (see ``Bindings.bind``)."""
        closure = function.closure
        inherited = {}
        if closure is not None and closure.passed:
            shadowed = {parameter.arg for parameter in _parameters_of(function.node)}
            inherited = {name: value for name, value in closure.passed.items() if name not in shadowed}
        own = passed_arguments(call, positional, keyword_only, self.frame.passed if self.frames else None)
        return {**inherited, **own} or None


def shifts_a_strategy(function: Function, args: list, kwargs: dict) -> bool:
    """The call hands a strategy to a parameter annotated as plain data (`log_dir: str`): its
    arguments are shifted (the function gained a parameter its callers still skip), so the run
    its body describes is not the one this call makes, which fails on the misplaced values."""
    _, positional = _receiver_and_positional(function)
    bound = [*zip(positional, args), *((parameter, kwargs.get(parameter.arg))
                                       for parameter in [*positional[len(args):], *function.node.args.kwonlyargs])]
    return any(isinstance(value, Strategy) and _is_plain_data(parameter.annotation) for parameter, value in bound)


def _is_plain_data(annotation: ast.expr | None) -> bool:
    """`str`, `int`, `pathlib.Path`, ... alone or optional (`str | None`, `Optional[str]`)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = (annotation.left, annotation.right)
        return any(_is_plain_data(side) for side in sides) and all(
            _is_plain_data(side) or _is_none(side) for side in sides)
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, (ast.Name, ast.Attribute)):
        return _name_of(annotation.value) == "Optional" and _is_plain_data(annotation.slice)
    return isinstance(annotation, (ast.Name, ast.Attribute)) and _name_of(annotation) in _PLAIN_DATA_TYPES


_PLAIN_DATA_TYPES = frozenset({"str", "bytes", "int", "float", "bool", "complex", "Path", "PathLike"})


def _name_of(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def runs_on(frame: Frame, value) -> bool:
    """Whether ``frame`` runs a method on ``value``: its receiver (`self`) is bound to it."""
    if frame.function is None:
        return False
    receiver, _ = _receiver_and_positional(frame.function)
    return receiver is not None and frame.env.get(receiver.arg) is value


def _receiver_and_positional(function: Function) -> tuple[ast.arg | None, list[ast.arg]]:
    """A method's `self` (None for a function or a static method), and the parameters a call's
    positional arguments fill."""
    positional = [*function.node.args.posonlyargs, *function.node.args.args]
    if function.owner_class is not None and positional and not _is_static(function.node):
        return positional[0], positional[1:]
    return None, positional


def _parameters_of(function: ast.AST) -> list[ast.arg]:
    arguments = function.args
    return [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
            *(extra for extra in (arguments.vararg, arguments.kwarg) if extra is not None)]


def _is_literal(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is not None


def _texts_passed(args: list, kwargs: dict) -> tuple:
    """The strings a call passes, by position and keyword (None for anything else)."""
    return (tuple(arg.value if is_text(arg) else None for arg in args)
            + tuple((name, value.value) for name, value in sorted(kwargs.items(), key=lambda item: str(item[0]))
                    if is_text(value)))


def _is_reference(node: ast.AST | None) -> bool:
    """A plain name or dotted attribute of one (`REGISTRY`, `config.DEFAULTS`)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def _is_none(node: ast.AST | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _unpacks(call: ast.Call) -> bool:
    """`f(*args)` or `f(**options)`: which parameters the call fills is unknown."""
    return any(isinstance(arg, ast.Starred) for arg in call.args) or any(k.arg is None for k in call.keywords)


def _is_static(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod",) for d in node.decorator_list)


def _literal_arguments(call: ast.AST, frame: Frame, caller: Frame, function: Function,
                       into_another_module: bool) -> frozenset:
    """The parameters bound to a literal written at ``call`` itself, or passed on from a parameter
    of the caller's that was (a module's `MULTI_GPU = False` passed on is not the caller's choice
    of path, nor is a default where the function's own file may call it with it and other files
    with another value, each checked on its own). A call into another module of the project takes
    the literal defaults it leaves as chosen: that module's own analysis runs the function with
    every value."""
    if not isinstance(call, ast.Call):
        return frozenset()
    written = {id(arg) for arg in call.args} | {id(keyword.value) for keyword in call.keywords}
    written |= {id(caller.env[name]) for name in caller.literal_arguments if name in caller.env}
    if into_another_module:
        arguments = function.node.args
        written |= {id(default) for default in [*arguments.defaults, *arguments.kw_defaults] if default is not None}
    return frozenset(name for name, value in frame.env.items()
                     if isinstance(value, ast.Constant) and id(value) in written)
