"""Expressions: names, attributes, containers, conditional values; what each evaluates to."""

from __future__ import annotations

import ast

from tfscope.astutil import dotted_name
from tfscope.model.calls import Calls
from tfscope.model.context import Frame
from tfscope.model.entities import Owner, Strategy
from tfscope.model.joins import (
    existence_of,
    join_values,
    literal_truth,
    owners_in,
    without_decided,
)
from tfscope.model.object_methods import STRATEGY_EVIDENCE
from tfscope.model.type_tests import class_names, holds_for, is_isinstance_call, options_of, reads_only
from tfscope.model.values import (
    Alternatives,
    ApiRef,
    BoundMethod,
    CheckpointManager,
    ClassValue,
    Dataset,
    ExitStackValue,
    Function,
    Instance,
    Loss,
    MadeInScope,
    ProjectRef,
    ScopeContext,
    Sequence,
    is_text,
    is_unknown,
    key_pattern,
    Tensor,
)
from tfscope.resolve.catalog import (
    Api,
    CONVENTIONAL_ALIASES,
    canonical,
)

# builtins whose iteration pairs up the items of their arguments
_PAIRING_BUILTINS = frozenset({"zip", "enumerate"})
# A model's or layer's symbolic tensors, and whether its own weights produce them: its inputs
# come from weightless `Input` layers, its outputs from its layers.
_SYMBOLIC_TENSORS = {"input": False, "inputs": False, "output": True, "outputs": True}
_GRAPH_OWNERS = frozenset({Api.MODEL, Api.LOADED_MODEL, Api.LAYER})


# Tests of whether a path is a folder (see ``Expressions.folders_tested``).
_FOLDER_TESTS = frozenset({"os.path.isdir", "tensorflow.io.gfile.isdir"})
# Endings of files that hold a model or its weights, never of a folder.
_FILE_SUFFIXES = (".h5", ".hdf5", ".keras", ".tflite", ".onnx", ".pb")
# What a test reads for a strategy the code constructed: truthy, not None, equal to no literal.
_CONSTRUCTED = object()


class Expressions:

    # --------------------------------------------------------- expressions

    def eval(self, node: ast.AST | None, frame: Frame):
        if node is None:
            return None
        handler = _EXPRESSIONS.get(type(node))
        if handler is not None:
            return handler(self, node, frame)
        return self.eval_children(node, frame)

    def eval_children(self, node: ast.AST, frame: Frame):
        producers: list[Owner] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                value = self.eval(child, frame)
                if isinstance(value, Tensor):
                    producers.extend(value.producers)
            elif isinstance(child, ast.stmt):
                self.exec_block([child], frame)
        return Tensor(tuple(producers)) if producers else None

    def eval_constant(self, node: ast.Constant, frame: Frame):
        return node  # the literal is its own abstract value

    def eval_name(self, node: ast.Name, frame: Frame):
        value = frame.lookup(node.id)
        if value is None and node.id in CONVENTIONAL_ALIASES and not frame.binds(node.id):
            # `tf` from a star import or an earlier notebook the file does not show
            value = ApiRef(CONVENTIONAL_ALIASES[node.id])
        elif is_unknown(value) and _looks_like_strategy(node):
            value = self.symbolic_strategy(node.id)
        self.note_use_in_step(value, node)
        return value

    def eval_attribute(self, node: ast.Attribute, frame: Frame):
        receiver = self.eval(node.value, frame)
        value = self.attribute_of(receiver, node, frame)
        if value is None and is_unknown(receiver) and node.attr in STRATEGY_EVIDENCE:
            self.strategy_by_use(node.value, frame)
        if value is None and _looks_like_strategy(node):
            value = self.symbolic_strategy(dotted_name(node) or node.attr)
        self.note_use_in_step(value, node)
        return value

    def attribute_of(self, receiver, node: ast.Attribute, frame: Frame):
        name = node.attr
        if isinstance(receiver, Alternatives):
            return join_values([self.attribute_of(option, node, frame) for option in receiver.options])
        if isinstance(receiver, ApiRef):
            # `tf.__version__` and friends are plain data, not API to call
            return ApiRef(canonical(f"{receiver.name}.{name}")) if not name.startswith("__") else None
        if isinstance(receiver, ProjectRef):
            defined = self.external_value(receiver) if receiver.name else None
            if isinstance(defined, Instance):  # an object another module made (`REGISTRY.build_loss`)
                return self.attribute_of(defined, node, frame)
            # a string a class of another module binds (`Config.WEIGHTS_NAME`)
            if isinstance(defined, ClassValue) and name in defined.data:
                return defined.data[name]
            module = receiver.module + ("" if receiver.module.endswith(".") else ".") + receiver.name
            return (self.reexported_library(module.rstrip("."), name)
                    or ProjectRef(receiver.module, f"{receiver.name}.{name}".lstrip(".")))
        if isinstance(receiver, Owner):
            if name in receiver.attrs:
                return receiver.attrs[name]
            if name == "optimizer" and isinstance(receiver.optimizer, Owner):
                return receiver.optimizer
            if name == "distribute_strategy" and receiver.placement is not None:
                return receiver.placement  # the strategy a Keras model was created under
            if receiver.kind in _GRAPH_OWNERS and name in _SYMBOLIC_TENSORS:
                return Tensor((receiver,) if _SYMBOLIC_TENSORS[name] else ())
            return BoundMethod(receiver, name)
        if isinstance(receiver, ClassValue) and name in receiver.data:
            return receiver.data[name]
        if isinstance(receiver, Loss) and name in receiver.attrs:
            return receiver.attrs[name]
        if isinstance(receiver, Instance):
            if name in receiver.attrs:
                return receiver.attrs[name]
            if name in receiver.cls.data:
                return receiver.cls.data[name]
            method = receiver.cls.method(name)
            return BoundMethod(receiver, name) if method else None
        if isinstance(receiver, (Strategy, Dataset, Loss, ScopeContext, ExitStackValue, CheckpointManager)):
            return BoundMethod(receiver, name)
        if isinstance(receiver, MadeInScope) and name == "compile":
            return BoundMethod(receiver, name)
        dotted = dotted_name(node)
        return frame.lookup(dotted) if dotted else None

    def note_use_in_step(self, value, node: ast.AST) -> None:
        # only owners meet the replica (see ``feasible``): the reason is not worth spelling for anything else
        if self.replica is not None and isinstance(value, (Owner, Alternatives, list)):
            self.meet(value, self.replica, self.local_node(node), f"used in a step run by {self.replica.describe()}",
                       "step")

    def eval_subscript(self, node: ast.Subscript, frame: Frame):
        """An item of a list or dict the model tracks (`metrics["loss"]`): any of its owners or
        objects of the project's classes, or of what makes them (`OPTIMIZERS[args.optimizer]`: a
        class or factory the name picks, here or imported from another module of the project)."""
        container = self.eval(node.value, frame)
        key = self.eval(node.slice, frame)
        if isinstance(container, Sequence):
            item = join_values([item for item in container.items_at(node.slice, key) if _worth_keeping(item)])
            self.note_use_in_step(item, node)
            return item
        return container if isinstance(container, Tensor) else None

    def iteration_item(self, node: ast.AST, frame: Frame):
        """What one turn of `for target in <node>:` binds: any item of a container the model tracks
        (`for gradient in accumulators:`); `zip` and `enumerate` pair the items up."""
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _PAIRING_BUILTINS
                and not frame.binds(node.func.id) and not any(isinstance(arg, ast.Starred) for arg in node.args)):
            for keyword in node.keywords:
                self.eval(keyword.value, frame)
            items = [self.iteration_item(arg, frame) for arg in node.args]
            return Sequence(tuple([None, *items[:1]] if node.func.id == "enumerate" else items))
        value = self.eval(node, frame)
        if isinstance(value, Sequence):
            return join_values([item for item in value.items if item is not None])
        return value

    def eval_sequence(self, node, frame: Frame):
        items = tuple(self.eval(element, frame) for element in node.elts)
        return Sequence(items, positional=isinstance(node, (ast.List, ast.Tuple))
                        and not any(isinstance(element, ast.Starred) for element in node.elts))

    def eval_dict(self, node: ast.Dict, frame: Frame):
        for key in node.keys:
            if key is not None:
                self.eval(key, frame)
        return Sequence(tuple(self.eval(value, frame) for value in node.values),
                        tuple(key_pattern(key) if key is not None else None for key in node.keys))

    def eval_if_exp(self, node: ast.IfExp, frame: Frame):
        self.eval(node.test, frame)
        literals = self.literals_in(node.test, frame)
        decided = literal_truth(node.test, literals)
        if decided is not None:
            return self.eval(node.body if decided else node.orelse, frame)
        condition = self.condition_of(without_decided(node.test, literals))
        values, paths = [], []
        for branch, held in ((node.body, True), (node.orelse, False)):
            mark = self.assume(condition, held)
            values.append(self.eval(branch, frame))
            paths.append(tuple(self.conditions[mark:]))
            self.forget(mark)
        return join_values(values, paths)

    def literals_in(self, test: ast.expr, frame: Frame) -> dict:
        """What decides parts of a test before the run does (see ``joins.literal_truth``): the caller's
        literal arguments (`if is_distributed:` in a body called as `self.trainer(data,
        is_distributed=True)`), flags a method set, constructed strategies, answered calls."""
        literals = {name: value.value for name in frame.literal_arguments
                    if isinstance(value := frame.env.get(name), ast.Constant)}
        parts = self.parts_of(test)
        literals.update(self.flags_tested(parts.read, frame))
        literals.update(self.strategies_tested(parts.read, frame))
        calls = parts.calls
        if calls:
            literals.update(self.types_tested(calls, frame))
            literals.update(self.folders_tested(calls, frame))
            literals.update(self.absent_attributes_tested(calls, frame))
        return literals

    def undecided_condition(self, test: ast.expr, frame: Frame):
        """The condition code under ``test`` runs on: what is left of the test once ``literals_in``
        decided its parts (`strategy is not None and not keras_fit`, the strategy made: `not keras_fit`);
        None when they decide it whole (the path is no condition then)."""
        literals = self.literals_in(test, frame)
        if literal_truth(test, literals) is not None:
            return None
        return self.condition_of(without_decided(test, literals))

    def folders_tested(self, calls: list[ast.Call], frame: Frame) -> dict:
        """`os.path.isdir(path)`, `path.is_dir()` among a test's ``calls`` -> False where the path
        ends as a model file's name does (`.../model_ref.h5`): a file is no folder, so a fallback to
        the newest checkpoint of a folder does not run. Keyed by the call node."""
        answers = {}
        for node in calls:
            if not all(map(reads_only, node.args)):
                continue
            if isinstance(node.func, ast.Attribute) and node.func.attr == "is_dir" and not node.args:
                path = self.eval(node.func.value, frame) if reads_only(node.func.value) else None
            elif node.args and reads_only(node.func) and getattr(self.eval(node.func, frame), "name", None) in _FOLDER_TESTS:
                path = self.eval(node.args[0], frame)
            else:
                continue
            if is_text(path) and path.value.lower().endswith(_FILE_SUFFIXES):
                answers[node] = False
        return answers

    def absent_attributes_tested(self, calls: list[ast.Call], frame: Frame) -> dict:
        """`hasattr(self, "strategy")` among a test's ``calls`` -> False where the instance has no such
        attribute and its class's code never stores it on an instance that runs that code (see
        ``ClassValue.attributes_its_code_sets``). Keyed by the call node."""
        answers = {}
        for node in calls:
            if not (isinstance(node.func, ast.Name) and node.func.id == "hasattr" and not frame.binds("hasattr")
                    and len(node.args) == 2 and is_text(node.args[1]) and reads_only(node.args[0])):
                continue
            name = node.args[1].value
            options = options_of(self.eval(node.args[0], frame))
            if options and all(isinstance(option, Instance) and name not in option.attrs
                               and name not in (option.cls.attributes_its_code_sets or {name})
                               for option in options):
                answers[node] = False
        return answers

    def strategies_tested(self, read: tuple[ast.expr, ...], frame: Frame) -> dict:
        """`strategy is not None`, `if self.strategy:` -> decided where the name holds one strategy the
        code constructed on every path that reaches here (made under no condition this path does not
        also hold: `X() if multi_gpu else None` leaves the strategy alone in the name): never None."""
        present = {}
        for node in read:
            if isinstance(node, ast.Name):
                value, key = frame.lookup(node.id), node.id
            else:
                receiver = frame.lookup(node.value.id)
                value = receiver.attrs.get(node.attr) if isinstance(receiver, (Instance, Owner)) else None
                key = f"{node.value.id}.{node.attr}"
            if (isinstance(value, Strategy) and value.node is not None and value.kind != "unknown"
                    and all(condition in self.conditions or condition[0] == existence_of(value)
                            for condition in value.condition)):
                present[key] = _CONSTRUCTED
        return present

    def flags_tested(self, read: tuple[ast.expr, ...], frame: Frame) -> dict:
        """`self.compiled` -> True where a method that ran on this path set it (see ``Instance.flags``)."""
        flags = {}
        for node in read:
            if isinstance(node, ast.Attribute):
                receiver = self.eval(node.value, frame)
                value = receiver.attrs.get(node.attr) if isinstance(receiver, Instance) else None
                if isinstance(value, ast.Constant) and node.attr in receiver.flags:
                    flags[f"{node.value.id}.{node.attr}"] = value.value
        return flags

    def types_tested(self, calls: list[ast.Call], frame: Frame) -> dict:
        """`isinstance(model, keras.Model)` among a test's ``calls`` -> True where every object the
        name may hold answers so (see ``type_tests``), keyed by the call node."""
        decided = {}
        for node in calls:
            held = {answer for _, answer in self.isinstance_answers(node, frame)}
            if len(held) == 1 and None not in held:
                decided[node] = held.pop()
        return decided

    def isinstance_answers(self, test: ast.expr, frame: Frame) -> list[tuple]:
        """For `isinstance(value, cls)`: (object, whether it is one, None when unknown) for each object
        ``value`` may be; empty for any other test, or one whose operands would run code again."""
        if not is_isinstance_call(test) or not all(map(reads_only, test.args)):
            return []
        classes = class_names(test.args[1], lambda node: self.resolved(self.eval(node, frame)), frame.binds)
        if classes is None:
            return []
        return [(option, holds_for(option, classes)) for option in options_of(self.eval(test.args[0], frame))]

    def resolved(self, value):
        """A class or function of another module of the project, once found, for its reference."""
        return (self.external_value(value) or value) if isinstance(value, ProjectRef) else value

    def eval_bool_op(self, node: ast.BoolOp, frame: Frame):
        """`a or b` is either operand: the paths meet (a literal operand is only a flag)."""
        values = [self.eval(value, frame) for value in node.values]
        return join_values([value for value in values if not isinstance(value, ast.Constant)])

    def eval_named_expr(self, node: ast.NamedExpr, frame: Frame):
        value = self.eval(node.value, frame)
        self.bind(node.target, value, frame)
        return value

    def eval_yield(self, node, frame: Frame):
        self.eval(node.value, frame)
        if frame.function is not None and frame.function.is_contextmanager:
            if len(self.scopes) > frame.scope_depth_at_entry and frame.yielded is None:
                frame.yielded = ScopeContext(self.current())
        return None

    def eval_bin_op(self, node: ast.BinOp, frame: Frame):
        """Tensors flow through arithmetic; a string or path keeps the operand that decides its
        ending: `"fold_%d.h5" % k`, `prefix + name`, `pathlib.Path(folder) / weights_name()`."""
        left, right = self.eval(node.left, frame), self.eval(node.right, frame)
        producers = tuple(producer for value in (left, right) if isinstance(value, Tensor) for producer in value.producers)
        if producers:
            return Tensor(producers)
        ending = right if isinstance(node.op, (ast.Add, ast.Div)) else left if isinstance(node.op, ast.Mod) else None
        return ending if is_text(ending) else None

    def eval_joined_str(self, node: ast.JoinedStr, frame: Frame):
        """An f-string keeps what its end says: `f"{folder}/model.h5"`, `f"{folder}/{weights_name}"`."""
        parts = [self.eval(part.value if isinstance(part, ast.FormattedValue) else part, frame) for part in node.values]
        producers = tuple(producer for value in parts if isinstance(value, Tensor) for producer in value.producers)
        if producers:
            return Tensor(producers)
        return parts[-1] if parts and is_text(parts[-1]) else None

    def eval_lambda(self, node: ast.Lambda, frame: Frame):
        return None


def _eval_comprehension(builder: Expressions, node, frame: Frame):
    """Generators first, then the element, which runs once per item: a loop."""
    for generator in node.generators:
        builder.bind(generator.target, builder.eval(generator.iter, frame), frame)
        for condition in generator.ifs:
            builder.eval(condition, frame)
    builder.loop_depth += 1
    try:
        elements = [node.key, node.value] if isinstance(node, ast.DictComp) else [node.elt]
        return Sequence(tuple(builder.eval(element, frame) for element in elements))
    finally:
        builder.loop_depth -= 1


def _worth_keeping(item) -> bool:
    """What a subscript hands on: owners, objects of the project's classes, what makes them, and the
    lists and dicts that hold them (`metrics["dice"][1]`)."""
    if isinstance(item, Sequence):
        return any(map(_worth_keeping, item.items))
    return any(owners_in(item)) or isinstance(item, (ApiRef, ClassValue, Function, ProjectRef, Instance, Loss))


_EXPRESSIONS = {
    ast.ListComp: _eval_comprehension,
    ast.SetComp: _eval_comprehension,
    ast.DictComp: _eval_comprehension,
    ast.GeneratorExp: _eval_comprehension,
    ast.Call: Calls.eval_call,
    ast.Name: Expressions.eval_name,
    ast.Attribute: Expressions.eval_attribute,
    ast.Constant: Expressions.eval_constant,
    ast.Tuple: Expressions.eval_sequence,
    ast.List: Expressions.eval_sequence,
    ast.Set: Expressions.eval_sequence,
    ast.Dict: Expressions.eval_dict,
    ast.IfExp: Expressions.eval_if_exp,
    ast.BoolOp: Expressions.eval_bool_op,
    ast.NamedExpr: Expressions.eval_named_expr,
    ast.Yield: Expressions.eval_yield,
    ast.YieldFrom: Expressions.eval_yield,
    ast.Lambda: Expressions.eval_lambda,
    ast.BinOp: Expressions.eval_bin_op,
    ast.Subscript: Expressions.eval_subscript,
    ast.JoinedStr: Expressions.eval_joined_str,
}


def _looks_like_strategy(node: ast.AST) -> bool:
    """`args.strategy`, `self._strategy`, `dist_strategy`: received from elsewhere."""
    if isinstance(node, ast.Attribute):
        return "strategy" in node.attr.lower()
    if isinstance(node, ast.Name):
        return "strategy" in node.id.lower()
    return False
