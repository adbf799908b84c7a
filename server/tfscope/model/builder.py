"""Build the semantic model by abstract interpretation of the module, in program order.

Scopes are dynamic in TensorFlow (a factory called inside ``with s.scope():`` creates its
variables there), so local functions are interpreted at each call site with the caller's
scope stack, and objects they create are attributed to that call site. Functions nobody in
the file calls are interpreted once on their own, with an unknown caller context.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from tfscope.astutil import assigned_name, walk_statements
from tfscope.model.context import Frame, ScopeStack, TestParts
from tfscope.model.entities import Owner, Root, SemanticModel, Strategy
from tfscope.model.facts import OptimizerV2Era
from tfscope.model.joins import Condition
from tfscope.model.interpreter import Interpreter
from tfscope.model.object_methods import ObjectMethods
from tfscope.model.step_picks import StepPicks
from tfscope.model.tf_api import TfApiCalls
from tfscope.model.values import (
    SET_UP_METHODS,
    ApiRef,
    ClassValue,
    Function,
    Instance,
    ProjectRef,
)
from tfscope.resolve.catalog import Api, classify
from tfscope.resolve.project import package_inits

@dataclass
class DriverRun:
    """A script's build that runs the project's other modules as its own code: what happens in them
    is kept and sited where it happens (not at the call that enters them), for their analyses to
    report what they do under the script's strategies. Their definitions are built for the run."""

    modules: dict[int, dict] = field(default_factory=dict)  # id of a module's tree -> its definitions
    trees: dict[str, ast.Module] = field(default_factory=dict)  # absolute path -> the tree read
    executed: set[ast.stmt] = field(default_factory=set)  # every statement the run ran, of any module


class ModelBuilder(Interpreter, TfApiCalls, ObjectMethods, StepPicks, ScopeStack):
    def __init__(self, tree: ast.Module, keras_version: int, settings, path: str | None = None,
                 project=None, external: bool = False, run: DriverRun | None = None) -> None:
        self.path = path
        self.project = project  # a ProjectResolver, or None
        self.external = external  # building the definitions of another module of the project
        self.run = run  # a script's build running the project's other modules as its own (see ``DriverRun``)
        self.unresolved = False  # a project import jedi has not answered yet
        self.runs_imports = False  # a package's `__init__` a script's run runs: what it imports runs too
        # (call, statement, key) in the analysed file while code of another module runs
        self.external_entry: tuple[ast.AST, ast.stmt | None, ast.AST | None] | None = None
        self.ran_external_code = False  # see ``release_frames``
        self.tree = tree
        self.model = SemanticModel(keras_version=keras_version, module=tree)
        self.scopes: list[Strategy] = []  # dynamic scope stack (with-blocks, set_strategy, ...)
        self.scopes_entered = 0  # scopes entered so far: a constructor that enters one places what it makes
        self.set_on: dict[int, tuple] = {}  # id of a strategy -> the path `experimental_set_strategy` set it on
        self.conditions: list = []  # the branch conditions the code being run is under
        self.conditions_by_test: dict[ast.expr, Condition] = {}  # see ``condition_of``
        self.test_parts: dict[ast.expr, TestParts] = {}  # see ``parts_of``
        self.replica: Strategy | None = None  # inside a function run by strategy.run
        self.compiled_caller: str | None = None  # inside the loss or metric named so that compile was given
        self.call_stack: list[ast.AST] = []  # call nodes being inlined, outermost first
        self.assignments_in: dict[int, dict] = {}  # see ``StepPicks.step_pick``
        self.active_functions: list[tuple[Function, list, dict]] = []  # with the arguments each run was given
        self.root: Root | None = None
        self.frames: list[Frame] = []
        self.loop_depth = 0
        self.decided_flow_end = False  # the `if` just run took a branch its literals decided, which ends the flow
        self.early_tf_ops: list[tuple[ast.AST, tuple]] = []  # ops before the first strategy, with their paths
        self.startup_done = False
        self.cluster_set = False  # `TF_CONFIG` assigned so far
        self.cluster_writes = 0  # how many times, for a strategy made again to compare
        self.loops: list[ast.AST] = []  # the `for`/`while` statements running, outermost first
        self.inlined_statements = 0
        self.attribute_writes: list[dict] = []  # per branch being run, see ``exec_branches``
        self.first_builds: list[list] = []  # per branch being run: (model, placement before its first build)
        self.optimizer_v2_fallback = 0  # inside the fallback of a `try` that uses `optimizers.legacy`
        self.legacy_optimizer_trys: dict[int, bool] = {}  # id of a `try` -> whether its body uses them
        self.functions: list[Function] = []
        self.names_loaded: dict[ast.AST, set[str]] = {}  # by function: the names its body reads (see ``is_dead_local``)
        self.made_owners: list[Owner] = []  # every owner made, registered or not (see ``release_frames``)
        self.entry_points: set[ast.AST] = set()  # functions the top level hands to a runner (`app.run(main)`)
        self.called_nodes: set[ast.AST] = set()  # every def that ran, by any Function value of it
        # (id of a class, def) of every method that ran on an instance of that class: a base class's
        # method a subclass ran (`super().fit()`) still runs on the base's own instance
        self.methods_run: set[tuple[int, ast.AST]] = set()
        # each strategy construction's runs: (path conditions, `TF_CONFIG` writes so far)
        self.strategy_creations: dict[tuple[Root, ast.AST], list[tuple]] = {}
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
        self.runs_imports = self.run is not None and os.path.basename(self.path or "") == "__init__.py"
        frame = Frame({}, key=self.tree)
        self.frames = [frame]
        self.exec_block(self.tree.body, frame)
        by_line: dict[int, object] = {}
        for value in frame.env.values():
            if isinstance(value, (Function, ClassValue)):
                by_line[value.node.lineno] = value
            if isinstance(value, ClassValue):
                for method in value.methods.values():
                    by_line.setdefault(method.node.lineno, method)
        for statement in self.tree.body if self.run is not None else ():
            # an object of the project's own class the module makes for the script's other modules (a registry)
            name = assigned_name(statement)
            if name is not None and isinstance(value := frame.env.get(name), Instance):
                by_line[statement.lineno] = value
        return by_line

    def build(self) -> SemanticModel:
        module_root = Root(self.tree, context_known=True)
        self.root = module_root
        self.default_strategy = Strategy("default", None, module_root, label="tf.distribute.get_strategy()")
        module_frame = Frame({}, key=self.tree)
        self.frames = [module_frame]
        self.exec_block(self.tree.body, module_frame)
        # latest definitions first (an entry point like `main` usually comes last), skipping
        # functions that an earlier entry point already ran; a class's methods as one unit
        for function in reversed(list(self.functions)):
            if function.external:
                continue
            if function.owner_class is not None:
                if (id(function.owner_class), function.node) not in self.methods_run:
                    self.analyze_class(function.owner_class)
            elif function.node not in self.called_nodes and not self.is_dead_local(function):
                self.analyze_uncalled(function)
        # other modules' code may have asked jedi for further modules (a base class's base)
        self.unresolved = self.unresolved or (self.project is not None and self.project.has_pending)
        self.release_frames()
        return self.model

    def is_dead_local(self, function: Function) -> bool:
        """A function defined inside another one whose body never names it (its call commented out):
        nothing can run it, so it is no entry point. Unless a decorator other than `tf.function`
        may have registered it to be run."""
        enclosing = function.closure.function if function.closure is not None else None
        if enclosing is None or not all(self.is_tf_function(decorator, function.closure)
                                        for decorator in function.node.decorator_list):
            return False
        loaded = self.names_loaded.get(enclosing.node)
        if loaded is None:
            loaded = self.names_loaded[enclosing.node] = {
                node.id for node in ast.walk(enclosing.node) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}
        return function.node.name not in loaded

    def is_tf_function(self, decorator: ast.expr, frame: Frame) -> bool:
        """`@tf.function` or `@tf.function(...)`: it compiles the function, and runs it only when called."""
        wrapper = self.eval(decorator.func if isinstance(decorator, ast.Call) else decorator, frame)
        return isinstance(wrapper, ApiRef) and classify(wrapper.name) is Api.TF_FUNCTION

    def release_frames(self) -> None:
        """Cut what only the interpretation follows: a function's defining frame and class, an
        owner's creating frame. Each is held back by the frame or class it points at, so each
        analysis, syntax tree and all, would be a cycle for the collector to find instead of
        freed as soon as it is dropped. Not after another module's code ran: it may have kept
        this file's functions in that module's objects, which the project's cache hands to
        later builds (and another module's definitions keep theirs: they run again)."""
        if self.ran_external_code:
            return
        for function in self.functions:
            function.closure = function.owner_class = None
        for owner in self.made_owners:
            owner.site_frame = None

    def analyze_class(self, cls: ClassValue) -> None:
        """Methods nobody calls run on one instance: first what sets it up (`__init__`, a test's
        `setUp`), then each other method from that state, as a caller or a test runner would."""
        instance = Instance(cls)
        for name in SET_UP_METHODS:
            method = cls.method(name)
            if method is not None and (id(cls), method.node) not in self.methods_run:
                self.analyze_uncalled(method, instance)
        state = dict(instance.attrs)
        # methods that set attributes up (a `compile` override, `create_optimizer`) run first and
        # hand them on, as a caller calls them before the methods that use them (`train_step`)
        others = [method for method in cls.methods.values() if (id(cls), method.node) not in self.methods_run]
        setters = [method for method in others if _assigns_attributes(method)]
        for method in [*setters, *(method for method in others if method not in setters)]:
            if (id(cls), method.node) in self.methods_run:
                continue
            instance.attrs, instance.flags = dict(state), set()  # no method is known to have run before
            self.analyze_uncalled(method, instance)
            if method in setters:
                state = dict(instance.attrs)

    def analyze_uncalled(self, function: Function, self_value=None) -> None:
        self.root = Root(function.node, context_known=function.node in self.entry_points,
                         test_entry=_is_test(function))
        self.scopes, self.replica, self.call_stack, self.loop_depth, self.loops = [], None, [], 0, []
        self.conditions = list(function.defined_under)  # whoever calls it, it exists only on that path
        self.compiled_caller = None
        frame = Frame({}, parent=function.closure, function=function, key=function.node)
        self.frames = [frame]
        if self_value is None and function.owner_class is not None:
            self_value = Instance(function.owner_class)
        self.bind_parameters(function, frame, args=[], kwargs={}, self_value=self_value)
        self.note_run(function, self_value)
        self.exec_block(function.node.body, frame)

    # --------------------------------------------------------------- helpers

    def report(self, event, located_here: bool = False) -> None:
        """Events inside another module's code belong to that module's own analysis, unless the
        event places itself in this file (``located_here``)."""
        if self.external_entry is None or located_here:
            self.model.events.append(event)

    def local_node(self, node: ast.AST) -> ast.AST:
        return self.external_entry[0] if self.external_entry is not None else node

    def external_value(self, ref: ProjectRef):
        """The function or class another module of the project defines, once jedi found it; in a
        script's run also an object of the project's own class that module makes (a registry)."""
        if self.project is None:
            return None
        found = self.project.lookup(self.path, ref.module, ref.name)
        if found is None:
            self.unresolved = self.unresolved or self.project.has_pending
            return None
        definition, tree = found
        if self.project.uses_tensorflow_1_apis(definition.path):
            # the TensorFlow version is the project's, wherever its code says so
            self.report(OptimizerV2Era(tree), located_here=True)
        value = self.interpreted(definition.path, tree).get(definition.line)
        if isinstance(value, Instance):  # a registry: what the package's imports register in it
            self.run_package_inits(definition.path)
        return value

    def run_package_inits(self, path: str) -> None:
        """What Python runs before a module of a package: the `__init__` of each package it is in,
        whose imports run modules that may fill a registry it keeps (`@REGISTRY.register_loss("ssd")`).
        Only for a registry's module: every `__init__` of a large project would run them all."""
        for init in package_inits(path):
            init_tree = self.project.module_tree(init)
            if init_tree is not None:
                self.interpreted(init, init_tree)

    def run_imported_module(self, module: str) -> None:
        """A package's `__init__` imports one of the project's modules: it runs, for what it does."""
        path = self.project.module_path(self.path, module) if self.project is not None else None
        tree = self.project.module_tree(path) if path is not None else None
        if tree is not None:
            self.run_package_inits(path)
            self.interpreted(path, tree)

    def interpreted(self, path: str, tree: ast.Module) -> dict[int, object]:
        """The module's definitions, built once per run (or, outside one, per version of the file)."""
        version = self.model.keras_version

        def interpret():
            builder = ModelBuilder(tree, version, self.settings, path=path, project=self.project,
                                   external=self.run is None, run=self.run)
            return builder.definitions(), not builder.unresolved

        if self.run is None:
            return self.project.definitions(tree, version, interpret)
        definitions = self.run.modules.get(id(tree))
        if definitions is None:
            self.run.modules[id(tree)] = {}  # modules that import each other: the inner one sees nothing
            self.run.trees[os.path.abspath(path)] = tree
            definitions, complete = interpret()
            self.unresolved = self.unresolved or not complete
            self.run.modules[id(tree)] = definitions
        return definitions


def _is_test(function: Function) -> bool:
    """What pytest and unittest collect: `test*` functions and methods of non-Keras classes."""
    owner = function.owner_class
    return function.node.name.startswith("test") and (owner is None or owner.kind is None)


def _assigns_attributes(function: Function) -> bool:
    """Whether the method stores something on `self` (its first parameter)."""
    parameters = function.node.args.posonlyargs + function.node.args.args
    if not parameters:
        return False
    receiver = parameters[0].arg
    # assignments are statements: expressions, most of the body, need no visit
    return any(isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == receiver
               for node in walk_statements(function.node) if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))
               for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
