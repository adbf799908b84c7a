"""Build the semantic model by abstract interpretation of the module, in program order.

Scopes are dynamic in TensorFlow (a factory called inside ``with s.scope():`` creates its
variables there), so local functions are interpreted at each call site with the caller's
scope stack, and objects they create are attributed to that call site. Functions nobody in
the file calls are interpreted once on their own, with an unknown caller context.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from tfscope.astutil import dotted_name
from tfscope.model.entities import (
    BuildOutsideScope,
    CompileCreatesOwners,
    DataInScope,
    FitInScope,
    LossInStep,
    NestedScopes,
    Owner,
    RestoreIntoUnscoped,
    RestoreOutsideScope,
    Root,
    SemanticModel,
    StartupAfterOps,
    StepOutsideRun,
    Strategy,
    StrategyRecreated,
)
from tfscope.model.values import (
    ApiRef,
    BoundMethod,
    CheckpointManager,
    ClassValue,
    Dataset,
    ExitStackValue,
    Function,
    Instance,
    Loss,
    ProjectRef,
    ScopeContext,
    Sequence,
    Tensor,
)
from tfscope.resolve.catalog import (
    KNOWN_ROOTS,
    STARTUP_STRATEGIES,
    VARIABLE_OWNERS,
    Api,
    base_class_kind,
    canonical,
    classify,
)

# Catalog kinds that set TensorFlow up rather than run it (may precede a strategy's creation).
_NOT_TF_OPS = frozenset(
    {None, Api.TF_SETUP, Api.STRATEGY, Api.GET_STRATEGY, Api.SET_STRATEGY, Api.TPU_INIT,
     Api.TF_FUNCTION, Api.NULL_CONTEXT, Api.EXIT_STACK, Api.CONTEXT_MANAGER, Api.ENVIRON,
     Api.SCHEDULE, Api.LOSS}
)
# Kinds a checkpoint ties to the strategy of the objects it tracks (host-side counters stay apart).
_CHECKPOINTED_TOGETHER = frozenset({Api.MODEL, Api.OPTIMIZER, Api.METRIC, Api.LOADED_MODEL})
# Libraries whose calls run TensorFlow ops (tfds builds tf.data pipelines).
_TF_OP_ROOTS = ("tensorflow.", "keras.", "tensorflow_datasets.", "tensorflow_hub.")
MAX_CALL_DEPTH = 8
MAX_INLINED_STATEMENTS = 200_000  # keeps pathological files linear

TRAINING_METHODS = frozenset({"fit", "train_on_batch"})
KERAS_LOOP_METHODS = frozenset({"fit", "evaluate", "predict"})
RUN_METHODS = frozenset({"run", "experimental_run_v2"})
STRATEGY_USES = frozenset(
    {"scope", "run", "experimental_run_v2", "experimental_distribute_dataset",
     "distribute_datasets_from_function", "experimental_distribute_datasets_from_function",
     "reduce", "gather", "experimental_local_results"}
)
_DEFAULT_OPTIMIZER = ast.Constant("rmsprop")  # what compile() builds when given no optimizer


@dataclass
class _Frame:
    env: dict
    parent: _Frame | None = None
    function: Function | None = None
    returns: list = field(default_factory=list)
    yielded: ScopeContext | None = None
    scope_depth_at_entry: int = 0
    statement: ast.stmt | None = None  # the statement of this frame being executed
    key: ast.AST | None = None  # the function (or module) whose body this frame runs

    def lookup(self, name: str):
        frame = self
        while frame is not None:
            if name in frame.env:
                return frame.env[name]
            frame = frame.parent
        return None


class ModelBuilder:
    def __init__(self, tree: ast.Module, keras_version: int, settings, path: str | None = None,
                 project=None, external: bool = False) -> None:
        self.path = path
        self.project = project  # a ProjectResolver, or None
        self.external = external  # building the definitions of another module of the project
        self.unresolved = False  # a project import jedi has not answered yet
        # (call, statement, key) in the analysed file while code of another module runs
        self.external_entry: tuple[ast.AST, ast.stmt | None, ast.AST | None] | None = None
        self.tree = tree
        self.model = SemanticModel(keras_version=keras_version, module=tree)
        self.scopes: list[Strategy] = []  # dynamic scope stack (with-blocks, set_strategy, ...)
        self.replica: Strategy | None = None  # inside a function run by strategy.run
        self.call_stack: list[ast.AST] = []  # call nodes being inlined, outermost first
        self.active_functions: list[Function] = []
        self.root: Root | None = None
        self.frames: list[_Frame] = []
        self.loop_depth = 0
        self.first_tf_op: ast.AST | None = None
        self.startup_done = False
        self.inlined_statements = 0
        self.functions: list[Function] = []
        self.called_nodes: set[ast.AST] = set()  # every def that ran, by any Function value of it
        self.strategy_creations: dict[tuple[Root, ast.AST], int] = {}
        self.symbolic_strategies: dict[tuple[Root, str], Strategy] = {}
        self.default_strategy: Strategy | None = None
        self.current_with: list[tuple[ast.With, Strategy]] = []
        self.settings = settings
        self.factories = {
            "strategy": set(settings.strategy_factories),
            "scope": set(settings.scope_helpers),
            "model": set(settings.model_factories),
        }

    # ----------------------------------------------------------------- entry

    def definitions(self) -> dict[int, object]:
        """Run the module body only; its functions and classes (and methods) by `def` line."""
        module_root = Root(self.tree, context_known=False)
        self.root = module_root
        self.default_strategy = Strategy("default", None, module_root)
        frame = _Frame({}, key=self.tree)
        self.frames = [frame]
        self.exec_block(self.tree.body, frame)
        by_line: dict[int, object] = {}
        for value in frame.env.values():
            if isinstance(value, (Function, ClassValue)):
                by_line[value.node.lineno] = value
            if isinstance(value, ClassValue):
                for method in value.methods.values():
                    by_line.setdefault(method.node.lineno, method)
        return by_line

    def build(self) -> SemanticModel:
        module_root = Root(self.tree, context_known=True)
        self.root = module_root
        self.default_strategy = Strategy("default", None, module_root, label="tf.distribute.get_strategy()")
        module_frame = _Frame({}, key=self.tree)
        self.frames = [module_frame]
        self.exec_block(self.tree.body, module_frame)
        # latest definitions first (an entry point like `main` usually comes last), skipping
        # functions that an earlier entry point already ran
        for function in reversed(list(self.functions)):
            if function.node not in self.called_nodes and not function.external:
                self.analyze_uncalled(function)
        return self.model

    def analyze_uncalled(self, function: Function) -> None:
        self.root = Root(function.node, context_known=False)
        self.scopes, self.replica, self.call_stack, self.loop_depth = [], None, [], 0
        frame = _Frame({}, parent=function.closure, function=function, key=function.node)
        self.frames = [frame]
        self.bind_parameters(function, frame, args=[], kwargs={}, self_value=self.phantom_self(function))
        self.called_nodes.add(function.node)
        self.exec_block(function.node.body, frame)

    def phantom_self(self, function: Function):
        cls = function.owner_class
        if cls is None:
            return None
        return Instance(cls)

    # ------------------------------------------------------------ statements

    def exec_block(self, statements: list[ast.stmt], frame: _Frame) -> None:
        for statement in statements:
            frame.statement = statement
            self.inlined_statements += 1
            handler = _STATEMENTS.get(type(statement))
            if handler is not None:
                handler(self, statement, frame)
            else:
                self.eval_children(statement, frame)

    def exec_assign(self, node: ast.Assign, frame: _Frame) -> None:
        value = self.eval(node.value, frame)
        for target in node.targets:
            self.bind(target, value, frame)

    def exec_ann_assign(self, node: ast.AnnAssign, frame: _Frame) -> None:
        value = self.eval(node.value, frame) if node.value is not None else None
        if value is None and self.annotation_is_strategy(node.annotation, frame):
            value = self.symbolic_strategy(_text(node.target))
        self.bind(node.target, value, frame)

    def exec_aug_assign(self, node: ast.AugAssign, frame: _Frame) -> None:
        self.eval(node.value, frame)

    def exec_expr(self, node: ast.Expr, frame: _Frame) -> None:
        self.eval(node.value, frame)

    def exec_return(self, node: ast.Return, frame: _Frame) -> None:
        if node.value is not None:
            frame.returns.append(self.eval(node.value, frame))

    def exec_loop(self, node, frame: _Frame) -> None:
        if isinstance(node, (ast.For, ast.AsyncFor)):
            self.bind(node.target, self.eval(node.iter, frame), frame)
        else:
            self.eval(node.test, frame)
        self.loop_depth += 1
        self.exec_block(node.body, frame)
        self.loop_depth -= 1
        self.exec_block(node.orelse, frame)

    def exec_if(self, node: ast.If, frame: _Frame) -> None:
        self.eval(node.test, frame)
        self.exec_block(node.body, frame)
        self.exec_block(node.orelse, frame)

    def exec_try(self, node, frame: _Frame) -> None:
        self.exec_block(node.body, frame)
        for handler in node.handlers:
            self.exec_block(handler.body, frame)
        self.exec_block(node.orelse, frame)
        self.exec_block(node.finalbody, frame)

    def exec_match(self, node, frame: _Frame) -> None:
        self.eval(node.subject, frame)
        for case in node.cases:
            self.exec_block(case.body, frame)

    def exec_function_def(self, node, frame: _Frame, owner_class: ClassValue | None = None) -> Function:
        decorators = [self.eval(decorator, frame) for decorator in node.decorator_list]
        is_contextmanager = any(
            isinstance(value, ApiRef) and classify(value.name) is Api.CONTEXT_MANAGER for value in decorators
        )
        function = Function(node, closure=frame, is_contextmanager=is_contextmanager,
                            owner_class=owner_class, external=self.external or self.external_entry is not None)
        self.functions.append(function)
        if owner_class is None:
            frame.env[node.name] = function
        return function

    def exec_class_def(self, node: ast.ClassDef, frame: _Frame) -> None:
        kind = None
        bases = []
        for base in node.bases:
            value = self.eval(base, frame)
            if isinstance(value, ApiRef):
                kind = kind or base_class_kind(value.name)
            elif isinstance(value, ClassValue):
                bases.append(value)
                kind = kind or value.kind
        cls = ClassValue(node, kind, bases=bases)
        frame.env[node.name] = cls
        for statement in node.body:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                cls.methods[statement.name] = self.exec_function_def(statement, frame, owner_class=cls)

    def exec_import(self, node: ast.Import, frame: _Frame) -> None:
        for alias in node.names:
            if alias.asname:
                frame.env[alias.asname] = self.module_ref(alias.name)
            else:
                top = alias.name.split(".")[0]
                frame.env[top] = self.module_ref(top)

    def exec_import_from(self, node: ast.ImportFrom, frame: _Frame) -> None:
        module = node.module or ""
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            if node.level == 0 and module.split(".")[0] in KNOWN_ROOTS:
                frame.env[local] = ApiRef(canonical(f"{module}.{alias.name}"))
            else:
                frame.env[local] = ProjectRef("." * node.level + module, alias.name)

    def module_ref(self, dotted: str):
        if dotted.split(".")[0] in KNOWN_ROOTS:
            return ApiRef(canonical(dotted))
        return ProjectRef(dotted, "")

    def exec_with(self, node, frame: _Frame) -> None:
        entered: list[Strategy] = []
        stacks: list[ExitStackValue] = []
        for item in node.items:
            value = self.eval(item.context_expr, frame)
            if isinstance(value, ScopeContext) and value.strategy is not None:
                self.enter_scope(value.strategy, item.context_expr, node)
                entered.append(value.strategy)
            elif isinstance(value, ExitStackValue):
                stacks.append(value)
            if item.optional_vars is not None:
                self.bind(item.optional_vars, value, frame)
        self.exec_block(node.body, frame)
        for stack in stacks:
            for _ in stack.entered:
                self.exit_scope()
            stack.entered.clear()
        for _ in entered:
            self.exit_scope()
            self.current_with.pop()

    # -------------------------------------------------------------- scopes

    def current(self) -> Strategy | None:
        return self.scopes[-1] if self.scopes else None

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

    def exit_scope(self) -> None:
        if self.scopes:
            self.scopes.pop()

    def symbolic_strategy(self, text: str) -> Strategy:
        key = (self.root, text)
        strategy = self.symbolic_strategies.get(key)
        if strategy is None:
            strategy = Strategy("unknown", None, self.root, label=text)
            strategy.name_in(self.frame.key, text)
            self.symbolic_strategies[key] = strategy
            self.model.strategies.append(strategy)
        return strategy

    # ------------------------------------------------------------- binding

    def bind(self, target: ast.AST, value, frame: _Frame) -> None:
        if isinstance(target, ast.Name):
            previous = frame.env.get(target.id)
            if isinstance(previous, Strategy) and isinstance(value, Strategy) and previous is not value:
                # alternatives (`try: TPUStrategy() except: MirroredStrategy()`): the one in use stands
                # for both, and a real strategy for a default fallback (its mistakes are the real ones)
                if value.is_default and not previous.is_default:
                    previous, value = value, previous
                value.alternatives.append(previous)
            frame.env[target.id] = value
            self.label_value(value, target)
        elif isinstance(target, ast.Attribute):
            receiver = self.eval(target.value, frame)
            if isinstance(receiver, (Instance, Owner)):
                receiver.attrs[target.attr] = value
            else:
                dotted = dotted_name(target)
                if dotted:
                    frame.env[dotted] = value
            self.label_value(value, target)
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = value.items if isinstance(value, Sequence) else ()
            for index, element in enumerate(target.elts):
                if isinstance(element, ast.Starred):
                    self.bind(element.value, None, frame)
                else:
                    self.bind(element, items[index] if index < len(items) else None, frame)
        else:
            self.eval_children(target, frame)

    def label_value(self, value, target: ast.AST) -> None:
        text = _text(target)
        if isinstance(value, Strategy):
            value.name_in(self.frame.key, dotted_name(target))
            if value.binding is None:
                value.binding, value.binding_key = self.statement, self.frame.key
        elif isinstance(value, Owner):
            if not value.name or value.site_frame is self.frame:
                value.name = text
            if not self.call_stack:
                self.model.bindings.append((target, value))

    # --------------------------------------------------------- expressions

    def eval(self, node: ast.AST | None, frame: _Frame):
        if node is None:
            return None
        handler = _EXPRESSIONS.get(type(node))
        if handler is not None:
            return handler(self, node, frame)
        return self.eval_children(node, frame)

    def eval_children(self, node: ast.AST, frame: _Frame):
        producers: list[Owner] = []
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                value = self.eval(child, frame)
                if isinstance(value, Tensor):
                    producers.extend(value.producers)
            elif isinstance(child, ast.stmt):
                self.exec_block([child], frame)
        return Tensor(tuple(producers)) if producers else None

    def eval_constant(self, node: ast.Constant, frame: _Frame):
        return node  # the literal is its own abstract value

    def eval_name(self, node: ast.Name, frame: _Frame):
        value = frame.lookup(node.id)
        if value is None and _looks_like_strategy(node):
            value = self.symbolic_strategy(node.id)
        self.note_use_in_step(value, node)
        return value

    def eval_attribute(self, node: ast.Attribute, frame: _Frame):
        receiver = self.eval(node.value, frame)
        value = self.attribute_of(receiver, node, frame)
        if value is None and _looks_like_strategy(node):
            value = self.symbolic_strategy(dotted_name(node) or node.attr)
        self.note_use_in_step(value, node)
        return value

    def attribute_of(self, receiver, node: ast.Attribute, frame: _Frame):
        name = node.attr
        if isinstance(receiver, ApiRef):
            # `tf.__version__` and friends are plain data, not API to call
            return ApiRef(canonical(f"{receiver.name}.{name}")) if not name.startswith("__") else None
        if isinstance(receiver, ProjectRef):
            return ProjectRef(receiver.module, f"{receiver.name}.{name}".lstrip("."))
        if isinstance(receiver, Owner):
            if name in receiver.attrs:
                return receiver.attrs[name]
            if name == "optimizer" and isinstance(receiver.optimizer, Owner):
                return receiver.optimizer
            return BoundMethod(receiver, name)
        if isinstance(receiver, Instance):
            if name in receiver.attrs:
                return receiver.attrs[name]
            method = receiver.cls.method(name)
            return BoundMethod(receiver, name) if method else None
        if isinstance(receiver, (Strategy, Dataset, Loss, ScopeContext, ExitStackValue, CheckpointManager)):
            return BoundMethod(receiver, name)
        dotted = dotted_name(node)
        return frame.lookup(dotted) if dotted else None

    def note_use_in_step(self, value, node: ast.AST) -> None:
        if self.replica is not None and isinstance(value, Owner):
            value.meet(self.replica, self.local_node(node), f"used in a step run by {self.replica.describe()}",
                       "step")

    def eval_sequence(self, node, frame: _Frame):
        return Sequence(tuple(self.eval(element, frame) for element in node.elts))

    def eval_dict(self, node: ast.Dict, frame: _Frame):
        for key in node.keys:
            self.eval(key, frame)
        return Sequence(tuple(self.eval(value, frame) for value in node.values))

    def eval_if_exp(self, node: ast.IfExp, frame: _Frame):
        self.eval(node.test, frame)
        first, second = self.eval(node.body, frame), self.eval(node.orelse, frame)
        for value in (first, second):
            if isinstance(value, ScopeContext) and value.strategy is not None:
                return value
        return first if first is not None else second

    def eval_bool_op(self, node: ast.BoolOp, frame: _Frame):
        values = [self.eval(value, frame) for value in node.values]
        return next((value for value in values if value is not None and not isinstance(value, ast.Constant)), None)

    def eval_named_expr(self, node: ast.NamedExpr, frame: _Frame):
        value = self.eval(node.value, frame)
        self.bind(node.target, value, frame)
        return value

    def eval_yield(self, node, frame: _Frame):
        self.eval(node.value, frame)
        if frame.function is not None and frame.function.is_contextmanager:
            if len(self.scopes) > frame.scope_depth_at_entry and frame.yielded is None:
                frame.yielded = ScopeContext(self.current())
        return None

    def eval_lambda(self, node: ast.Lambda, frame: _Frame):
        return None

    # --------------------------------------------------------------- calls

    def eval_call(self, node: ast.Call, frame: _Frame):
        func = node.func
        receiver = None
        if isinstance(func, ast.Attribute):
            receiver = self.eval(func.value, frame)
            callee = self.attribute_of(receiver, func, frame)
        else:
            callee = self.eval(func, frame)
        args = [self.eval(arg.value if isinstance(arg, ast.Starred) else arg, frame) for arg in node.args]
        kwargs = {keyword.arg: self.eval(keyword.value, frame) for keyword in node.keywords}

        if isinstance(callee, BoundMethod):
            return self.call_method(callee.receiver, callee.name, node, args, kwargs, frame)
        if isinstance(callee, ApiRef):
            return self.call_api(callee.name, node, args, kwargs)
        if isinstance(callee, ProjectRef):
            callee = self.external_value(callee) or callee
        if isinstance(callee, Function):
            return self.call_function(callee, node, args, kwargs)
        if isinstance(callee, ClassValue):
            return self.instantiate(callee, node, args, kwargs)
        if isinstance(callee, Owner):
            return self.call_owner(callee, node, args)
        if isinstance(callee, Loss):
            return self.call_loss(callee, node)
        return self.call_unknown(callee, node, args, kwargs)

    def call_unknown(self, callee, node: ast.Call, args: list, kwargs: dict):
        name = _callee_name(node.func)
        if name == "compile" and isinstance(node.func, ast.Attribute):
            self.owner_compile(None, node, args, kwargs)
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
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
        producers = tuple(p for value in args if isinstance(value, Tensor) for p in value.producers)
        return Tensor(producers) if producers else None

    def mark_handed_over(self, value) -> None:
        """A strategy passed to code tfscope cannot see is assumed used there."""
        if isinstance(value, Strategy):
            value.mark_used()
        elif isinstance(value, Sequence):
            for item in value.items:
                self.mark_handed_over(item)

    # API calls, by what the catalog says the name creates

    def call_api(self, name: str, node: ast.Call, args: list, kwargs: dict):
        kind = classify(name)
        if self.first_tf_op is None and kind not in _NOT_TF_OPS and name.startswith(_TF_OP_ROOTS):
            self.first_tf_op = (node)
        handler = _API_CALLS.get(kind)
        if handler is not None:
            return handler(self, name, node, args, kwargs)
        if kind in VARIABLE_OWNERS:
            return self.create_owner(kind, name, node, args, kwargs)
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
        producers = tuple(p for value in [*args, *kwargs.values()] if isinstance(value, Tensor)
                          for p in value.producers)
        return Tensor(producers) if producers else None

    def api_strategy(self, name, node, args, kwargs):
        kind = name.rsplit(".", 1)[-1]
        return self.new_strategy(kind, node)

    def new_strategy(self, kind: str, node: ast.Call) -> Strategy:
        strategy = Strategy(kind, self.local_node(node), self.root, label=f"{kind}()")
        self.model.strategies.append(strategy)
        count = self.strategy_creations.get((self.root, node), 0) + 1
        self.strategy_creations[(self.root, node)] = count
        if self.loop_depth:
            self.report(StrategyRecreated(strategy, "in a loop"))
        elif count > 1:
            self.report(StrategyRecreated(strategy, "by a function called more than once"))
        if kind in STARTUP_STRATEGIES:
            self.check_startup(node, f"`{kind}`")
        return strategy

    def check_startup(self, node: ast.AST, what: str) -> None:
        """Only the program's first collective/TPU set-up must precede every op; later ones
        (TPUStrategy after its own init, a deliberate re-initialisation) find the runtime ready."""
        if self.startup_done or not self.root.context_known:
            return
        self.startup_done = True
        if self.first_tf_op is not None:
            self.report(StartupAfterOps(node, what, self.first_tf_op))

    def api_tpu_init(self, name, node, args, kwargs):
        self.check_startup(node, f"`{name.replace('tensorflow.', 'tf.')}`")
        return None

    def api_get_strategy(self, name, node, args, kwargs):
        return self.current() or self.default_strategy

    def api_set_strategy(self, name, node, args, kwargs):
        strategy = args[0] if args else kwargs.get("strategy")
        if isinstance(strategy, Strategy):
            self.enter_scope(strategy, node, None)
        elif self.scopes:
            self.scopes.clear()
        return None

    def api_tf_function(self, name, node, args, kwargs):
        return args[0] if args and isinstance(args[0], Function) else None

    def api_null_context(self, name, node, args, kwargs):
        return ScopeContext(None)

    def api_exit_stack(self, name, node, args, kwargs):
        return ExitStackValue()

    def api_input(self, name, node, args, kwargs):
        return Tensor()

    def api_data(self, name, node, args, kwargs):
        return Dataset(node)

    def api_loss(self, name, node, args, kwargs):
        reduction = kwargs.get("reduction")
        default = reduction is None or _is_default_reduction(next(
            (k.value for k in node.keywords if k.arg == "reduction"), None))
        return Loss(node, name.rsplit(".", 1)[-1], default_reduction=default)

    def api_checkpoint(self, name, node, args, kwargs):
        owner = self.new_owner(Api.CHECKPOINT, "tf.train.Checkpoint", node)
        owner.tracked = [value for value in kwargs.values() if isinstance(value, Owner)]
        strategies = {m.placement for m in owner.tracked if m.placement is not None}
        for strategy in strategies:
            owner.meet(strategy, self.local_node(node), f"tracks objects created in the {strategy.describe()} scope",
                       "checkpoint")
            for member in owner.tracked:
                if member.kind in _CHECKPOINTED_TOGETHER:
                    member.meet(strategy, self.local_node(node), "tracked by the same `tf.train.Checkpoint` as "
                                f"objects of the {strategy.describe()} scope", "checkpoint")
        return owner

    def api_trainer(self, name, node, args, kwargs):
        """Hugging Face's TFTrainer trains `model` under `args.strategy` (and builds the optimizer there)."""
        model = kwargs.get("model", args[0] if args else None)
        arguments = next((k.value for k in node.keywords if k.arg == "args"), node.args[1] if len(node.args) > 1 else None)
        dotted = dotted_name(arguments) if arguments is not None else None
        if dotted is None:
            return None
        strategy = self.symbolic_strategy(f"{dotted}.strategy")
        strategy.mark_used()
        if isinstance(model, Owner):
            model.meet(strategy, self.local_node(node), f"trained by `TFTrainer` under `{dotted}.strategy`", "loop")
        return None

    def api_checkpoint_manager(self, name, node, args, kwargs):
        checkpoint = args[0] if args else kwargs.get("checkpoint")
        return CheckpointManager(checkpoint if isinstance(checkpoint, Owner) else None)

    def create_owner(self, kind: Api, name: str, node: ast.Call, args: list, kwargs: dict) -> Owner:
        label = name.replace("tensorflow.", "tf.")
        owner = self.new_owner(kind, label, node)
        constructor = name.rsplit(".", 1)[-1]
        if kind is Api.MODEL and constructor == "Model":
            outputs = kwargs.get("outputs", args[1] if len(args) > 1 else None)
            owner.parts = _producers(outputs)
        elif kind is Api.MODEL and constructor == "Sequential":
            # fresh layers are built by the Sequential itself; built sub-models bring their weights
            layers = kwargs.get("layers", args[0] if args else None)
            owner.parts = [item for item in (layers.items if isinstance(layers, Sequence) else ())
                           if isinstance(item, Owner) and item.kind in (Api.MODEL, Api.LOADED_MODEL)]
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
        return owner

    def new_owner(self, kind: Api, label: str, node: ast.AST) -> Owner:
        placement = self.replica or self.current()
        if self.external_entry is not None:
            node, statement, key = self.external_entry
        else:
            statement, key = self.statement, self.frame.key
        owner = Owner(kind, label, node, statement, placement, self.root, key=key)
        owner.site_frame = self.frame
        self.model.owners.append(owner)
        return owner

    # Calls on values the model tracks

    def call_method(self, receiver, name: str, node: ast.Call, args: list, kwargs: dict, frame: _Frame):
        if isinstance(receiver, Strategy):
            return self.call_strategy_method(receiver, name, node, args, kwargs)
        if isinstance(receiver, ScopeContext):
            if name == "__enter__" and receiver.strategy is not None:
                self.enter_scope(receiver.strategy, node, None)
            elif name == "__exit__":
                self.exit_scope()
            return receiver if name == "__enter__" else None
        if isinstance(receiver, ExitStackValue):
            if name == "enter_context" and args and isinstance(args[0], ScopeContext) and args[0].strategy:
                self.enter_scope(args[0].strategy, node, None)
                receiver.entered.append(args[0].strategy)
            return None
        if isinstance(receiver, Dataset):
            return Dataset(node)
        if isinstance(receiver, CheckpointManager):
            if name == "restore_or_initialize" and receiver.checkpoint is not None:
                self.restore(receiver.checkpoint.tracked, node, "`restore_or_initialize`")
            return None
        if isinstance(receiver, (Instance, Owner)):
            cls = receiver.cls if isinstance(receiver, Instance) else receiver.attrs.get("__class__")
            method = cls.method(name) if isinstance(cls, ClassValue) else None
            if isinstance(receiver, Owner):
                self.call_owner_method(receiver, name, node, args, kwargs)
            if method is not None:
                return self.call_function(method, node, args, kwargs, self_value=receiver)
            return None
        return None

    def call_strategy_method(self, strategy: Strategy, name: str, node, args, kwargs):
        if name in STRATEGY_USES:
            strategy.mark_used()
        if name == "scope":
            return ScopeContext(strategy)
        if name in RUN_METHODS:
            return self.run_step(strategy, node, args, kwargs)
        return None

    def run_step(self, strategy: Strategy, node: ast.Call, args: list, kwargs: dict):
        step = args[0] if args else kwargs.get("fn")
        if isinstance(step, BoundMethod) and isinstance(step.receiver, Owner) and step.name in (
            TRAINING_METHODS | KERAS_LOOP_METHODS
        ):
            self.report(StepOutsideRun(
                (node), strategy, f"`{step.name}` is a whole Keras training loop, not a step",
                self.statement))
            return None
        if isinstance(step, Function):
            step_args = kwargs.get("args")
            outer, self.replica = self.replica, strategy
            try:
                self.call_function(step, node, list(step_args.items) if isinstance(step_args, Sequence) else [], {})
            finally:
                self.replica = outer
        return None

    def call_owner_method(self, owner: Owner, name: str, node: ast.Call, args: list, kwargs: dict) -> None:
        handler = _OWNER_METHODS.get(name)
        if handler is not None:
            handler(self, owner, node, args, kwargs)

    def owner_compile(self, model: Owner | None, node, args, kwargs) -> None:
        """``model`` None: a model tfscope cannot see (built dynamically), whose optimizer and
        metrics still have to agree with each other."""
        current = self.current()
        optimizer = kwargs.get("optimizer", args[0] if args else _DEFAULT_OPTIMIZER)
        metrics = kwargs.get("metrics")
        members = [model] if model is not None else []
        if isinstance(optimizer, Owner):
            members.append(optimizer)
        if model is not None and isinstance(optimizer, Owner):
            model.optimizer = optimizer
        elif model is not None and isinstance(optimizer, ast.Constant) and isinstance(optimizer.value, str):
            model.optimizer = optimizer.value
        if isinstance(metrics, Sequence):
            members.extend(item for item in metrics.items if isinstance(item, Owner))
        if current is not None:
            for member in members:
                member.meet(current, self.local_node(node), f"compiled inside the {current.describe()} scope", "compile")
        for strategy in {m.placement for m in members if m.placement is not None}:
            for member in members:
                if member.placement is not None and member.placement is current:
                    continue
                member.meet(strategy, self.local_node(node), f"compiled together with objects of the "
                                                        f"{strategy.describe()} scope", "combined")
        if model is None:
            return
        string_optimizer = isinstance(model.optimizer, str) and not isinstance(optimizer, Owner)
        if (current is None and model.placement is not None and not model.placement.is_default
                and string_optimizer and self.model.keras_version == 3):
            self.report(CompileCreatesOwners(
                node, self.statement, self.frame.key, model, model.placement,
                f"the optimizer `\"{model.optimizer}\"`"))

    def owner_keras_loop(self, model: Owner, node, args, kwargs) -> None:
        current = self.current()
        method = node.func.attr
        if current is not None:
            model.meet(current, self.local_node(node), f"`{method}` runs inside the {current.describe()} scope",
                       "loop")
        if current is not None and not current.is_default and method in KERAS_LOOP_METHODS:
            self.report(FitInScope(node, model, current, method))
        # Keras builds under the strategy the model recorded at construction here
        self.note_build(model, node, under_recorded_strategy=True)
        if method in TRAINING_METHODS:
            model.trained = True
            if isinstance(model.optimizer, Owner):
                model.optimizer.trained = True

    def owner_build(self, owner: Owner, node, args, kwargs) -> None:
        if owner.kind is Api.OPTIMIZER:
            owner.trained = True
        else:
            self.note_build(owner, node)

    def owner_step(self, optimizer: Owner, node, args, kwargs) -> None:
        optimizer.trained = True
        current = self.current()
        if self.replica is None and current is not None and not current.is_default:
            reason = f"trained by a step that runs inside the {current.describe()} scope"
            for owner in [optimizer, *self.owners_named_in(node)]:
                owner.meet(current, self.local_node(node), reason, "step")
        placement = optimizer.placement or current
        if (self.replica is None and placement is not None and not placement.is_default
                and self.root.context_known):
            # the mistake is the direct call of the step function, one frame up
            call = self.call_stack[-1] if self.call_stack else node
            statement = self.frames[-2].statement if len(self.frames) > 1 else self.statement
            self.report(StepOutsideRun(
                call, placement, f"`{node.func.attr}` of {optimizer.describe()} runs "
                f"in cross-replica context", statement))

    def owners_named_in(self, call: ast.Call) -> list[Owner]:
        """Objects a call's arguments name (`model` in `zip(grads, model.trainable_variables)`)."""
        found: list[Owner] = []
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            for name in ast.walk(argument):
                if isinstance(name, ast.Name):
                    value = self.frame.lookup(name.id)
                    if isinstance(value, Owner) and value not in found:
                        found.append(value)
        return found

    def owner_load_weights(self, model: Owner, node, args, kwargs) -> None:
        self.restore([model], node, "`load_weights`")
        self.note_build(model, node, under_recorded_strategy=True)

    def owner_restore(self, checkpoint: Owner, node, args, kwargs) -> None:
        if checkpoint.kind is Api.CHECKPOINT:
            self.restore(checkpoint.tracked, node, f"`{node.func.attr}`")

    def restore(self, targets: list[Owner], node: ast.AST, what: str) -> None:
        for target in targets:
            target.restored = True
        if self.current() is not None or self.replica is not None:
            return
        distributed = [t for t in targets if t.placement is not None and not t.placement.is_default]
        if targets and not distributed:
            self.report(RestoreIntoUnscoped(node, what, tuple(targets), self.frame.key))
            return
        fresh_optimizers = [
            t for t in distributed if (t.kind is Api.OPTIMIZER and not t.trained and ".legacy." not in t.label)
            or (t.kind in (Api.MODEL, Api.LOADED_MODEL) and t.optimizer is not None and not t.trained
                and not (isinstance(t.optimizer, Owner) and t.optimizer.trained))
        ]
        if fresh_optimizers:
            self.report(RestoreOutsideScope(
                node, self.statement, self.frame.key, tuple(distributed), distributed[0].placement, what))

    def note_build(self, model: Owner, node: ast.AST, under_recorded_strategy: bool = False) -> None:
        """The first call or build creates a lazy model's weights, under the current scope."""
        if model.built:
            return
        model.built = True
        current = self.current()
        if (model.lazy and not under_recorded_strategy and current is None and self.replica is None
                and model.placement is not None and not model.placement.is_default):
            self.report(BuildOutsideScope(node, self.statement, self.frame.key, model))

    def call_owner(self, owner: Owner, node: ast.Call, args: list):
        """Calling a layer or model: functional graph building, or a forward pass."""
        if owner.kind is Api.LAYER and any(isinstance(arg, Tensor) for arg in args):
            call_site = self.new_owner(Api.LAYER, owner.label, node)
            call_site.name = owner.name
            producers = tuple(p for arg in args if isinstance(arg, Tensor) for p in arg.producers)
            return Tensor(producers + (call_site,))
        if owner.kind in (Api.MODEL, Api.LAYER, Api.LOADED_MODEL):
            self.note_build(owner, node)
            if any(isinstance(arg, Tensor) for arg in args):
                return Tensor(tuple(p for arg in args if isinstance(arg, Tensor) for p in arg.producers)
                              + (owner,))
        return None

    def call_loss(self, loss: Loss, node: ast.Call):
        strategy = self.replica
        if strategy is not None and not strategy.is_default and loss.default_reduction:
            self.report(LossInStep(loss.node, loss.label, strategy, (node)))
        return None

    # Local functions and classes

    def call_function(self, function: Function, node: ast.Call, args: list, kwargs: dict, self_value=None):
        self.called_nodes.add(function.node)
        if (function in self.active_functions or len(self.call_stack) >= MAX_CALL_DEPTH
                or self.inlined_statements > MAX_INLINED_STATEMENTS):
            for value in [*args, *kwargs.values()]:
                self.mark_handed_over(value)
            return None
        frame = _Frame({}, parent=function.closure, function=function,
                       scope_depth_at_entry=len(self.scopes), key=function.node)
        self.bind_parameters(function, frame, args, kwargs, self_value)
        self.call_stack.append(node)
        self.active_functions.append(function)
        entering_external = function.external and self.external_entry is None
        if entering_external:
            self.external_entry = (node, self.statement, self.frame.key)
        self.frames.append(frame)
        try:
            self.exec_block(function.node.body, frame)
        finally:
            self.frames.pop()
            self.active_functions.pop()
            self.call_stack.pop()
            if entering_external:
                self.external_entry = None
        if function.is_contextmanager:
            return frame.yielded or ScopeContext(None)
        result = next((value for value in reversed(frame.returns) if value is not None), None)
        self.resite_returned(result, frame, node, function)
        return result

    def resite_returned(self, value, callee: _Frame, call: ast.AST, function: Function) -> None:
        """A factory's product is reported (and fixed) where the caller calls the factory."""
        values = value.items if isinstance(value, Sequence) else (value,)
        for owner in values:
            if isinstance(owner, Owner) and owner.site_frame is callee:
                owner.site, owner.statement, owner.site_frame = call, self.statement, self.frame
                owner.key, owner.name = self.frame.key, ""
                owner.label = f"{function.node.name}()"

    def bind_parameters(self, function: Function, frame: _Frame, args: list, kwargs: dict, self_value) -> None:
        parameters = function.node.args
        positional = [*parameters.posonlyargs, *parameters.args]
        values = list(args)
        if function.owner_class is not None and positional and not _is_static(function.node):
            frame.env[positional[0].arg] = self_value
            positional = positional[1:]
        for index, parameter in enumerate(positional):
            value = values[index] if index < len(values) else kwargs.get(parameter.arg)
            frame.env[parameter.arg] = self.parameter_value(parameter, value, frame)
        for parameter in parameters.kwonlyargs:
            frame.env[parameter.arg] = self.parameter_value(parameter, kwargs.get(parameter.arg), frame)

    def parameter_value(self, parameter: ast.arg, value, frame: _Frame):
        if value is None and (
            "strategy" in parameter.arg.lower()
            or (parameter.annotation is not None and "Strategy" in _text(parameter.annotation))
        ):
            value = self.symbolic_strategy(parameter.arg)
        if isinstance(value, Strategy):
            value.name_in(frame.key, parameter.arg)
        return value

    def meet_distributed_parts(self, model: Owner, node: ast.Call, values: list) -> None:
        """A model wrapping sub-models built in a scope records its own strategy (Keras 2) or none;
        `fit` then steps the distributed parts under the wrong one."""
        for part in values:
            if (isinstance(part, Owner) and part.kind in (Api.MODEL, Api.LOADED_MODEL)
                    and part.placement is not None and not part.placement.is_default):
                model.meet(part.placement, self.local_node(node), f"built from {part.describe()}, which is "
                           f"created in the {part.placement.describe()} scope", "combined")
                return

    def instantiate(self, cls: ClassValue, node: ast.Call, args: list, kwargs: dict):
        if cls.kind in VARIABLE_OWNERS:
            instance = self.new_owner(cls.kind, cls.node.name, node)
            instance.lazy = cls.kind is Api.MODEL
            instance.attrs["__class__"] = cls
            if cls.kind is Api.MODEL:
                self.meet_distributed_parts(instance, node, [*args, *kwargs.values()])
        elif cls.kind is Api.LOSS:
            return Loss(node, cls.node.name, default_reduction=False)
        else:
            instance = Instance(cls)
        init = cls.method("__init__")
        if init is not None:
            self.call_function(init, node, args, kwargs, self_value=instance)
        else:
            for value in [*args, *kwargs.values()]:
                self.mark_handed_over(value)
        return instance

    # --------------------------------------------------------------- helpers

    def report(self, event) -> None:
        """Events inside another module's code belong to that module's own analysis."""
        if self.external_entry is None:
            self.model.events.append(event)

    def local_node(self, node: ast.AST) -> ast.AST:
        return self.external_entry[0] if self.external_entry is not None else node

    def external_value(self, ref: ProjectRef):
        """The function or class another module of the project defines, once jedi found it."""
        if self.project is None or self.external:
            return None
        found = self.project.lookup(self.path, ref.module, ref.name)
        if found is None:
            self.unresolved = self.unresolved or self.project.has_pending
            return None
        definition, tree = found
        definitions = self.project.definitions(definition.path, tree, self.model.keras_version, self.settings)
        return definitions.get(definition.line)

    @property
    def frame(self) -> _Frame:
        return self.frames[-1]

    @property
    def statement(self) -> ast.stmt | None:
        return self.frames[-1].statement

    def annotation_is_strategy(self, annotation: ast.AST, frame: _Frame) -> bool:
        value = self.eval(annotation, frame)
        return isinstance(value, ApiRef) and value.name.endswith("Strategy") or "Strategy" in _text(annotation)

    def record_data_in_scope(self, statement: ast.stmt, value) -> None:
        if not self.current_with or self.call_stack:
            return
        with_node, strategy = self.current_with[-1]
        if statement in with_node.body and isinstance(value, Dataset) and not strategy.is_default:
            self.report(DataInScope(statement, with_node, strategy, "builds the input pipeline"))


def _exec_assign_checking_data(builder: ModelBuilder, node, frame: _Frame) -> None:
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
    ast.AnnAssign: ModelBuilder.exec_ann_assign,
    ast.AugAssign: ModelBuilder.exec_aug_assign,
    ast.Expr: _exec_assign_checking_data,
    ast.Return: ModelBuilder.exec_return,
    ast.For: ModelBuilder.exec_loop,
    ast.AsyncFor: ModelBuilder.exec_loop,
    ast.While: ModelBuilder.exec_loop,
    ast.If: ModelBuilder.exec_if,
    ast.Try: ModelBuilder.exec_try,
    ast.With: ModelBuilder.exec_with,
    ast.AsyncWith: ModelBuilder.exec_with,
    ast.FunctionDef: ModelBuilder.exec_function_def,
    ast.AsyncFunctionDef: ModelBuilder.exec_function_def,
    ast.ClassDef: ModelBuilder.exec_class_def,
    ast.Import: ModelBuilder.exec_import,
    ast.ImportFrom: ModelBuilder.exec_import_from,
    ast.Pass: lambda *_: None,
    ast.Break: lambda *_: None,
    ast.Continue: lambda *_: None,
    ast.Global: lambda *_: None,
    ast.Nonlocal: lambda *_: None,
}
if hasattr(ast, "TryStar"):
    _STATEMENTS[ast.TryStar] = ModelBuilder.exec_try
if hasattr(ast, "Match"):
    _STATEMENTS[ast.Match] = ModelBuilder.exec_match

def _eval_comprehension(builder: ModelBuilder, node, frame: _Frame):
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


_EXPRESSIONS = {
    ast.ListComp: _eval_comprehension,
    ast.SetComp: _eval_comprehension,
    ast.DictComp: _eval_comprehension,
    ast.GeneratorExp: _eval_comprehension,
    ast.Call: ModelBuilder.eval_call,
    ast.Name: ModelBuilder.eval_name,
    ast.Attribute: ModelBuilder.eval_attribute,
    ast.Constant: ModelBuilder.eval_constant,
    ast.Tuple: ModelBuilder.eval_sequence,
    ast.List: ModelBuilder.eval_sequence,
    ast.Set: ModelBuilder.eval_sequence,
    ast.Dict: ModelBuilder.eval_dict,
    ast.IfExp: ModelBuilder.eval_if_exp,
    ast.BoolOp: ModelBuilder.eval_bool_op,
    ast.NamedExpr: ModelBuilder.eval_named_expr,
    ast.Yield: ModelBuilder.eval_yield,
    ast.YieldFrom: ModelBuilder.eval_yield,
    ast.Lambda: ModelBuilder.eval_lambda,
}

_API_CALLS = {
    Api.STRATEGY: ModelBuilder.api_strategy,
    Api.GET_STRATEGY: ModelBuilder.api_get_strategy,
    Api.SET_STRATEGY: ModelBuilder.api_set_strategy,
    Api.TPU_INIT: ModelBuilder.api_tpu_init,
    Api.TF_FUNCTION: ModelBuilder.api_tf_function,
    Api.NULL_CONTEXT: ModelBuilder.api_null_context,
    Api.EXIT_STACK: ModelBuilder.api_exit_stack,
    Api.INPUT: ModelBuilder.api_input,
    Api.DATA: ModelBuilder.api_data,
    Api.LOSS: ModelBuilder.api_loss,
    Api.CHECKPOINT: ModelBuilder.api_checkpoint,
    Api.CHECKPOINT_MANAGER: ModelBuilder.api_checkpoint_manager,
    Api.TRAINER: ModelBuilder.api_trainer,
}

_OWNER_METHODS = {
    "compile": ModelBuilder.owner_compile,
    "fit": ModelBuilder.owner_keras_loop,
    "evaluate": ModelBuilder.owner_keras_loop,
    "predict": ModelBuilder.owner_keras_loop,
    "train_on_batch": ModelBuilder.owner_keras_loop,
    "test_on_batch": ModelBuilder.owner_keras_loop,
    "predict_on_batch": ModelBuilder.owner_keras_loop,
    "build": ModelBuilder.owner_build,
    "apply_gradients": ModelBuilder.owner_step,
    "minimize": ModelBuilder.owner_step,
    "load_weights": ModelBuilder.owner_load_weights,
    "restore": ModelBuilder.owner_restore,
    "read": ModelBuilder.owner_restore,
}


def _text(node: ast.AST) -> str:
    try:
        return ast.unparse(node)
    except Exception:  # unparse of a recovered tree can fail on odd nodes
        return ""


def _callee_name(func: ast.AST) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _looks_like_strategy(node: ast.AST) -> bool:
    """`args.strategy`, `self._strategy`, `dist_strategy`: received from elsewhere."""
    if isinstance(node, ast.Attribute):
        return "strategy" in node.attr.lower()
    if isinstance(node, ast.Name):
        return "strategy" in node.id.lower()
    return False


def _is_static(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id in ("staticmethod",) for d in node.decorator_list)


def _producers(value) -> list[Owner]:
    if isinstance(value, Tensor):
        return list(dict.fromkeys(value.producers))
    if isinstance(value, Sequence):
        return list(dict.fromkeys(p for item in value.items for p in _producers(item)))
    return []


def _is_default_reduction(node: ast.AST | None) -> bool:
    if node is None:
        return True
    text = _text(node).lower()
    return "auto" in text or "sum_over_batch_size" in text
