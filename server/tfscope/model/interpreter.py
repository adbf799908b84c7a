"""The Python interpreter: statements, expressions, calls, functions and classes, in program order."""

from __future__ import annotations

import ast
from collections import ChainMap

from tfscope.astutil import assigned_name, dotted_name, text_of
from tfscope.model.bindings import Bindings, names_tf_config
from tfscope.model.calls import Calls
from tfscope.model.functions import FunctionCalls
from tfscope.model.context import Frame
from tfscope.model.entities import Strategy
from tfscope.model.expressions import Expressions
from tfscope.model.facts import DataInScope, SingleWorkerEvidence
from tfscope.model.joins import (
    Condition,
    ends_flow,
    existence_of,
    join_layers,
    join_values,
    literal_truth,
    subject_of,
    without_decided,
)
from tfscope.model.type_tests import is_isinstance_call
from tfscope.model.values import (
    ApiRef,
    BoundMethod,
    ClassValue,
    Dataset,
    ExitStackValue,
    Function,
    Instance,
    ProjectRef,
    ScopeContext,
    is_text,
)
from tfscope.resolve.catalog import (
    KNOWN_ROOTS,
    NON_TENSORFLOW_FRAMEWORKS,
    Api,
    base_class_kind,
    builds_at_first_call,
    canonical,
    classify,
)
from tfscope.resolve.own_packages import imports_own_package


class Interpreter(Bindings, Expressions, Calls, FunctionCalls):

    # ------------------------------------------------------------ statements

    def exec_block(self, statements: list[ast.stmt], frame: Frame) -> None:
        mark = len(self.conditions)
        for statement in statements:
            frame.statement = statement
            self.inlined_statements += 1
            if self.run is not None:
                self.run.executed.add(statement)
            handler = _STATEMENTS.get(type(statement))
            implied = ()
            if handler is not None:
                implied = handler(self, statement, frame)
            else:
                self.eval_children(statement, frame)
            decided_flow_end, self.decided_flow_end = self.decided_flow_end, False
            if decided_flow_end and isinstance(statement, ast.If):
                break  # `if param.eager: return ...` where the literal holds: the rest never runs
            if isinstance(statement, ast.If) and ends_flow(statement.body) and not ends_flow(statement.orelse):
                # `if c: return` — the rest of the block runs only when `c` does not hold
                condition = self.undecided_condition(statement.test, frame)
                if condition is not None:
                    self.assume(condition, False)
                for implied_condition in implied or ():
                    self.assume(implied_condition, False)
        self.forget(mark)

    def exec_branches(self, frame: Frame, branches: list[tuple[list[ast.stmt], Condition | None, bool]],
                      exhaustive: bool = True, implied: tuple[Condition, ...] = ()) -> None:
        """Run each branch from the same bindings, then join what they leave behind. Branches
        that end in `return`/`raise`/`break`/`continue` do not reach the join. The ``implied``
        conditions hold exactly when the branch condition does."""
        base = frame.env
        reaching: list[dict] = []
        reaching_paths: list[tuple] = []
        written: dict = {}  # attributes the branches set: (id(holder), name) -> (holder, name, value before)
        attributes_reaching: list[dict] = []
        built_in_a_branch: list[tuple] = []  # (model, placement before, placement its build gave)
        for body, condition, held in branches:
            frame.env = ChainMap({}, base)  # a branch writes its own layer: no copy of what came before
            mark = self.assume(condition, held) if condition is not None else len(self.conditions)
            for implied_condition in implied:
                self.assume(implied_condition, held)
            path = tuple(self.conditions[mark:])
            self.attribute_writes.append({})
            self.first_builds.append([])
            self.exec_block(body, frame)
            writes = self.attribute_writes.pop()
            builds = self.first_builds.pop()
            self.forget(mark)
            # each branch's first build is its own: the next branch starts from the model unbuilt
            for model, placement_before in builds:
                built_in_a_branch.append((model, placement_before, model.placement))
                model.built, model.placement = False, placement_before
            # the next branch starts from the attributes as they were, too
            left = {key: holder.attrs.get(name, _UNSET) for key, (holder, name, _) in writes.items()}
            for key, (holder, name, before) in writes.items():
                written.setdefault(key, (holder, name, before))
                _set_attribute(holder, name, before)
            if not ends_flow(body):
                reaching.append(frame.env.maps[0])
                reaching_paths.append(path)
                attributes_reaching.append(left)
        frame.env = base
        join_layers(base, reaching, keep_base=not exhaustive, paths=reaching_paths)
        for model, placement_before, placement_built in built_in_a_branch:
            model.built, model.placement = True, model.placement or placement_built
            if self.first_builds:
                self.first_builds[-1].append((model, placement_before))
        for key, (holder, name, before) in written.items():
            values = [left.get(key, before) for left in attributes_reaching] + ([] if exhaustive else [before])
            if isinstance(holder, Instance) and len({_literal_key(value) for value in values if value is not _UNSET}) > 1:
                holder.flags.discard(name)  # set on some paths only: the run decides
            self.note_attribute_write(holder, name)
            _set_attribute(holder, name, _joined_attribute([v for v in values if v is not _UNSET]))

    def note_attribute_write(self, holder, name: str) -> None:
        """Record, for the branch being run, the value an attribute had before it first changes."""
        if self.attribute_writes:
            self.attribute_writes[-1].setdefault((id(holder), name), (holder, name, holder.attrs.get(name, _UNSET)))

    def exec_assign(self, node: ast.Assign, frame: Frame) -> None:
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.bind(target, value, frame)

    def exec_ann_assign(self, node: ast.AnnAssign, frame: Frame) -> None:
        value = self.eval(node.value, frame) if node.value is not None else None
        if value is None and self.annotation_is_strategy(node.annotation, frame):
            value = self.symbolic_strategy(text_of(node.target))
        self.bind(node.target, value, frame)

    def exec_aug_assign(self, node: ast.AugAssign, frame: Frame) -> None:
        self.eval(node.value, frame)

    def exec_delete(self, node: ast.Delete, frame: Frame) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript):
                holder = self.eval(target.value, frame)
                key = target.slice
                if names_tf_config(holder, key):
                    self.report(SingleWorkerEvidence(node, "`TF_CONFIG` removed"))

    def exec_expr(self, node: ast.Expr, frame: Frame) -> None:
        self.eval(node.value, frame)

    def exec_return(self, node: ast.Return, frame: Frame) -> None:
        if node.value is not None:
            frame.returns.append((self.eval(node.value, frame), tuple(self.conditions[frame.conditions_at_entry:])))

    def exec_loop(self, node, frame: Frame) -> None:
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.bind(node.target, self.iteration_item(node.iter, frame), frame)
        else:
            self.eval(node.test, frame)
        self.loop_depth += 1
        self.loops.append(node)
        # the body may run zero times: what it binds joins what was there before
        self.exec_branches(frame, [(node.body, None, True)], exhaustive=False)
        self.loops.pop()
        self.loop_depth -= 1
        self.exec_block(node.orelse, frame)

    def exec_if(self, node: ast.If, frame: Frame) -> tuple[Condition, ...]:
        """Returns what the test implies besides itself (see ``existence_conditions``)."""
        tested = self.eval(node.test, frame)
        literals = self.literals_in(node.test, frame)
        decided = literal_truth(node.test, literals)
        if decided is not None:
            taken = node.body if decided else node.orelse
            self.exec_block(taken, frame)
            self.decided_flow_end = ends_flow(taken)
            return ()
        condition = self.condition_of(without_decided(node.test, literals))
        implied = self.existence_conditions(node.test, tested, frame)
        self.exec_branches(frame, [(node.body, condition, True), (node.orelse, condition, False)], implied=implied)
        return implied

    def existence_conditions(self, test: ast.expr, tested, frame: Frame) -> tuple[Condition, ...]:
        """`if strategy:` where the name holds a strategy (`else: strategy = None`) tests whether it
        exists, and so the one condition it was made under, if that is all. ``tested``: the test's value."""
        subject, polarity = subject_of(test)
        if is_isinstance_call(subject):
            value = self.strategy_of_class(subject, frame)
        elif subject is test:
            value = tested
        else:
            value = self.eval(subject, frame) if dotted_name(subject) is not None else None
        if not isinstance(value, Strategy):
            return ()
        # what also holds here (the script guard, an enclosing test) tells nothing apart
        path = [c for c in value.condition if c[0] != existence_of(value) and c not in self.conditions]
        implied = [(existence_of(value), polarity)]
        if len(path) == 1:
            made_under, held = path[0]
            implied.append((made_under, held is polarity))
        return tuple(implied)

    def strategy_of_class(self, test: ast.Call, frame: Frame) -> Strategy | None:
        """`isinstance(strategy, MirroredStrategy)` where the name may hold that strategy or others
        that are not one (the default strategy): the test holds exactly where that one exists."""
        answers = self.isinstance_answers(test, frame)
        held = [option for option, answer in answers if answer]
        if len(held) != 1 or not isinstance(held[0], Strategy) or any(answer is None for _, answer in answers):
            return None
        return held[0]

    def exec_try(self, node, frame: Frame) -> None:
        base = frame.env
        frame.env = ChainMap({}, base)
        self.exec_block(node.body, frame)
        self.exec_block(node.orelse, frame)
        reaching = [] if ends_flow(node.orelse or node.body) else [frame.env.maps[0]]
        # `try: optimizers.legacy... except: optimizers...`: the fallback runs where TensorFlow has no
        # legacy module (before 2.11), whose optimizers are the same OptimizerV2 (an imported name
        # joins to the legacy one, see ``join_values``; what the fallback constructs is marked here)
        if node.handlers and id(node) not in self.legacy_optimizer_trys:
            self.legacy_optimizer_trys[id(node)] = _names_legacy_optimizers(node.body)
        legacy_fallback = bool(node.handlers) and self.legacy_optimizer_trys[id(node)]
        for handler in node.handlers:
            # a handler runs when the body failed part-way: start it from the bindings before
            frame.env = ChainMap({}, base)
            self.optimizer_v2_fallback += legacy_fallback
            self.exec_block(handler.body, frame)
            self.optimizer_v2_fallback -= legacy_fallback
            if not ends_flow(handler.body):
                reaching.append(frame.env.maps[0])
        frame.env = base
        join_layers(base, reaching, keep_base=False)
        self.exec_block(node.finalbody, frame)

    def exec_match(self, node, frame: Frame) -> None:
        self.eval(node.subject, frame)
        irrefutable = any(isinstance(case.pattern, ast.MatchAs) and case.pattern.pattern is None
                          and case.guard is None for case in node.cases)
        self.exec_branches(frame, [(case.body, None, True) for case in node.cases], exhaustive=irrefutable)

    def exec_function_def(self, node, frame: Frame, owner_class: ClassValue | None = None) -> Function:
        decorators = [self.eval(decorator, frame) for decorator in node.decorator_list]
        is_contextmanager = any(
            isinstance(value, ApiRef) and classify(value.name) is Api.CONTEXT_MANAGER for value in decorators
        )
        function = Function(node, closure=frame, is_contextmanager=is_contextmanager,
                            owner_class=owner_class, external=self.external or self.external_entry is not None,
                            defined_under=tuple(self.conditions))
        self.functions.append(function)
        bound = self.decorated(function, decorators, node, frame)
        if owner_class is None:
            frame.env[node.name] = bound
        return bound

    def decorated(self, defined, decorators: list, node: ast.AST, frame: Frame):
        """What a definition binds after the project's own decorators ran on it, innermost first: what
        one returns when it is the same kind of thing (one that runs the function through
        `strategy.run`, say), else the definition itself (`@REGISTRY.register_loss("ssd")` keeps the
        class and records it)."""
        bound = defined
        for decorator in reversed(decorators):
            if isinstance(decorator, Function):
                wrapped = self.call_function(decorator, node, [bound], {})
            elif isinstance(decorator, BoundMethod):
                wrapped = self.call_method(decorator.receiver, decorator.name, node, [bound], {}, frame)
            else:
                continue
            bound = wrapped if isinstance(wrapped, type(defined)) else bound
        return bound

    def exec_class_def(self, node: ast.ClassDef, frame: Frame) -> None:
        decorators = [self.eval(decorator, frame) for decorator in node.decorator_list]
        kind = None
        bases = []
        opaque_base = False
        lazy_library_bases = True  # every library base a Keras layer built at its first call
        for base in node.bases:
            value = self.resolved(self.eval(base, frame))  # a base class from another module of the project
            if isinstance(value, ApiRef):
                kind = kind or base_class_kind(value.name)
                opaque_base = True
                lazy_library_bases = lazy_library_bases and builds_at_first_call(value.name)
            elif isinstance(value, ClassValue):
                bases.append(value)
                kind = kind or value.kind
            elif not _is_known_foreign_base(value, base, frame):
                opaque_base, lazy_library_bases = True, False
        cls = ClassValue(node, kind, bases=bases, external=self.external or self.external_entry is not None,
                         opaque_base=opaque_base or bool(node.keywords),
                         library_bases_build_lazily=lazy_library_bases and not node.keywords)
        frame.env[node.name] = cls
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                cls.methods[statement.name] = self.exec_function_def(statement, frame, owner_class=cls)
            elif (name := assigned_name(statement)) is not None and self.builds_text_only(statement.value, frame):
                value = self.eval(statement.value, frame)
                if is_text(value):
                    cls.data[name] = value
        frame.env[node.name] = self.decorated(cls, decorators, node, frame)

    def exec_import(self, node: ast.Import, frame: Frame) -> None:
        for alias in node.names:
            if alias.asname:
                frame.env[alias.asname] = self.module_ref(alias.name)
            else:
                top = alias.name.split(".")[0]
                frame.env[top] = self.module_ref(top)
            if self.runs_imports and not self.names_library(alias.name):
                self.run_imported_module(alias.name)

    def exec_import_from(self, node: ast.ImportFrom, frame: Frame) -> None:
        module = node.module or ""
        project_module = self.runs_imports and not (node.level == 0 and self.names_library(module))
        if project_module:
            self.run_imported_module("." * node.level + module)
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            if node.level == 0 and self.names_library(module, alias.name):
                frame.env[local] = ApiRef(canonical(f"{module}.{alias.name}"))
            else:
                frame.env[local] = (self.reexported_library("." * node.level + module, alias.name)
                                    or ProjectRef("." * node.level + module, alias.name))
                if project_module:  # `from pkg import submodule`
                    self.run_imported_module(f"{'.' * node.level}{module}{'.' if module else ''}{alias.name}")

    def module_ref(self, dotted: str):
        if self.names_library(dotted):
            return ApiRef(canonical(dotted))
        return ProjectRef(dotted, "")

    def reexported_library(self, module: str, name: str) -> ApiRef | None:
        """The library a project module hands on under ``name`` (a backend shim's `keras`, `L`)."""
        dotted = self.project.reexported_library(self.path, module, name) if self.project is not None else None
        return ApiRef(canonical(dotted)) if dotted is not None and self.names_library(dotted) else None

    def names_library(self, module: str, name: str = "") -> bool:
        """A library tfscope knows, unless the module is one of the file's own package of that name."""
        return module.split(".")[0] in KNOWN_ROOTS and not imports_own_package(self.path, module, name)

    def exec_with(self, node, frame: Frame) -> None:
        entered: list[Strategy] = []
        stacks: list[ExitStackValue] = []
        managers: list[tuple[Instance, int]] = []  # user context managers and the depth before them
        for item in node.items:
            value = self.eval(item.context_expr, frame)
            if isinstance(value, ScopeContext) and value.strategy is not None:
                self.enter_scope(value.strategy, item.context_expr, node)
                entered.append(value.strategy)
            elif isinstance(value, ExitStackValue):
                stacks.append(value)
            elif isinstance(value, Instance) and value.cls.method("__enter__") is not None:
                # a class whose `__enter__` may enter a strategy's scope: run it, and its `__exit__` after
                managers.append((value, len(self.scopes)))
                value = self.call_function(value.cls.method("__enter__"), item.context_expr, [], {}, self_value=value)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, frame)
        self.exec_block(node.body, frame)
        for manager, depth in reversed(managers):
            leave = manager.cls.method("__exit__")
            if leave is not None:
                self.call_function(leave, node, [None, None, None], {}, self_value=manager)
            del self.scopes[depth:]
        for stack in stacks:
            for _ in stack.entered:
                self.exit_scope()
            stack.entered.clear()
        for _ in entered:
            self.exit_scope()
            self.current_with.pop()

    # ------------------------------------------------------------- binding

    def annotation_is_strategy(self, annotation: ast.AST, frame: Frame) -> bool:
        value = self.eval(annotation, frame)
        return isinstance(value, ApiRef) and value.name.endswith("Strategy") or "Strategy" in text_of(annotation)

    def record_data_in_scope(self, statement: ast.stmt, value) -> None:
        if not self.current_with or self.call_stack:
            return
        with_node, strategy = self.current_with[-1]
        if isinstance(value, Dataset) and statement in with_node.body:  # the cheap test first: a body is a list
            self.report(DataInScope(statement, with_node, strategy))


def _exec_assign_checking_data(builder: Interpreter, node, frame: Frame) -> None:
    owners_before = len(builder.model.owners)
    value_node = node.value
    if isinstance(node, ast.Expr):
        value = builder.eval(value_node, frame)
    else:
        value = builder.eval(value_node, frame)
        for target in node.targets:
            builder.bind(target, value, frame)
    if len(builder.model.owners) == owners_before:
        builder.record_data_in_scope(node, value)


_STATEMENTS = {
    ast.Assign: _exec_assign_checking_data,
    ast.AnnAssign: Interpreter.exec_ann_assign,
    ast.AugAssign: Interpreter.exec_aug_assign,
    ast.Expr: _exec_assign_checking_data,
    ast.Return: Interpreter.exec_return,
    ast.For: Interpreter.exec_loop,
    ast.AsyncFor: Interpreter.exec_loop,
    ast.While: Interpreter.exec_loop,
    ast.If: Interpreter.exec_if,
    ast.Try: Interpreter.exec_try,
    ast.With: Interpreter.exec_with,
    ast.AsyncWith: Interpreter.exec_with,
    ast.FunctionDef: Interpreter.exec_function_def,
    ast.AsyncFunctionDef: Interpreter.exec_function_def,
    ast.ClassDef: Interpreter.exec_class_def,
    ast.Import: Interpreter.exec_import,
    ast.ImportFrom: Interpreter.exec_import_from,
    ast.Delete: Interpreter.exec_delete,
    ast.Pass: lambda *_: None,
    ast.Break: lambda *_: None,
    ast.Continue: lambda *_: None,
    ast.Global: lambda *_: None,
    ast.Nonlocal: lambda *_: None,
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = Interpreter.exec_try
if hasattr(ast, "Match"):
    _STATEMENTS[ast.Match] = Interpreter.exec_match


def _names_legacy_optimizers(statements: list[ast.stmt]) -> bool:
    """Whether the statements import or use `keras.optimizers.legacy`."""
    for node in (child for statement in statements for child in ast.walk(statement)):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("optimizers.legacy"):
            return True
        if (isinstance(node, ast.Attribute) and node.attr == "legacy" and isinstance(node.value, ast.Attribute)
                and node.value.attr == "optimizers"):
            return True
    return False


_UNSET = object()  # an attribute not set yet


def _joined_attribute(values: list):
    """What an attribute holds after the branches: one value set on every path that sets it stays
    itself (a joined `None` would read as unknown)."""
    if not values:
        return _UNSET
    if all(value is values[0] for value in values):
        return values[0]
    return join_values(values)


def _is_known_foreign_base(value, base: ast.expr, frame: Frame) -> bool:
    """`object`, or a class of a framework other than TensorFlow (`torch.nn.Module`)."""
    if isinstance(base, ast.Name) and base.id == "object" and not frame.binds("object"):
        return True
    return isinstance(value, ProjectRef) and value.module.split(".")[0] in NON_TENSORFLOW_FRAMEWORKS


def _literal_key(value):
    return ("literal", repr(value.value)) if isinstance(value, ast.Constant) else ("object", id(value))


def _set_attribute(holder, name: str, value) -> None:
    if value is _UNSET:
        holder.attrs.pop(name, None)
    else:
        holder.attrs[name] = value
