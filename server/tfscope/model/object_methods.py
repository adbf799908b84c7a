"""Methods called on the values the model tracks: strategies, scopes, Keras objects, checkpoints."""

from __future__ import annotations

import ast

from tfscope.model.context import Frame
from tfscope.model.entities import Owner, Strategy
from tfscope.model.joins import contradicts
from tfscope.model.facts import (
    Compile,
    FirstBuild,
    KerasLoop,
    LoopInRun,
    LossCalled,
    OptimizerStep,
    OptimizerV2Era,
    RunInReplica,
    UsedAfterTpuReset,
)
from tfscope.model.functions import runs_on
from tfscope.model.restores import Restores
from tfscope.model.values import (
    Alternatives,
    BoundMethod,
    CheckpointManager,
    Dataset,
    ExitStackValue,
    Function,
    Instance,
    Loss,
    MadeInScope,
    ScopeContext,
    Sequence,
    Tensor,
    UnseenOptimizer,
    class_of,
    holds_keras_tensor,
    is_unknown,
    tensor_producers,
)
from tfscope.resolve.catalog import (
    Api,
)

TRAINING_METHODS = frozenset({"fit", "train_on_batch"})
KERAS_LOOP_METHODS = frozenset({"fit", "evaluate", "predict"})
# What writes every weight of a model or layer again, and the arguments that make a load skip some.
WEIGHT_WRITERS = frozenset({"load_weights", "set_weights"})
PARTIAL_LOADS = ("by_name", "skip_mismatch")
RUN_METHODS = frozenset({"run", "experimental_run_v2"})
# What only a strategy does: a value of unknown origin used so is a strategy, whatever its name.
STRATEGY_EVIDENCE = frozenset(
    {"scope", "run", "experimental_run_v2", "experimental_distribute_dataset",
     "distribute_datasets_from_function", "experimental_distribute_datasets_from_function",
     "experimental_local_results", "num_replicas_in_sync"}
)
# What marks a strategy of the file used (also what other objects share, like `reduce`).
STRATEGY_USES = (STRATEGY_EVIDENCE - {"num_replicas_in_sync"}) | {"reduce", "gather"}
_DEFAULT_OPTIMIZER = ast.Constant("rmsprop")  # what compile() builds when given no optimizer


class ObjectMethods(Restores):

    # Calls on values the model tracks

    def call_method(self, receiver, name: str, node: ast.Call, args: list, kwargs: dict, frame: Frame):
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
        if isinstance(receiver, MadeInScope):  # only its `compile` gets here (see `attribute_of`)
            receiver = self.adopt(receiver)
        if isinstance(receiver, Dataset):
            return Dataset(node)
        if isinstance(receiver, CheckpointManager):
            if name == "restore_or_initialize" and receiver.checkpoint is not None:
                self.restore(receiver.checkpoint.tracked, node, "`restore_or_initialize`")
            return None
        if isinstance(receiver, Owner) and name == "call":
            # `model.call(x)` runs the sublayers' `__call__`, which build them where it runs: a call
            return self.call_owner(receiver, node, args)
        if isinstance(receiver, (Instance, Owner, Loss)):
            cls = class_of(receiver)
            method = cls.method(name) if cls is not None else None
            if isinstance(receiver, Owner):
                self.note_method_after_reset(receiver, name, node, kwargs)
                self.call_owner_method(receiver, name, node, args, kwargs)
            if method is not None:
                return self.call_function(method, node, args, kwargs, self_value=receiver)
            if isinstance(receiver, Owner) and name == "get_layer" and receiver.kind in (Api.MODEL, Api.LOADED_MODEL):
                return receiver  # a layer of the model: its weights are the model's
            return None
        return None

    def adopt(self, made: MadeInScope) -> Owner:
        """A value of an unseen call in a scope that the code compiles is a Keras model made in that
        scope: registered, and bound instead of the value wherever the running code can see it."""
        if not made.adopted:
            made.adopted = True
            self.model.owners.append(made.owner)
        for frame in self.frames:
            while frame is not None:
                for name, value in frame.env.items():
                    if value is made:
                        frame.env[name] = made.owner
                frame = frame.parent
        return made.owner

    def call_strategy_method(self, strategy: Strategy, name: str, node, args, kwargs):
        if name in STRATEGY_USES:
            strategy.mark_used()
        if name == "scope":
            return ScopeContext(strategy)
        if name == "experimental_run_v2":
            # the TensorFlow version is the project's, wherever its code says so
            self.report(OptimizerV2Era(self.local_node(node)), located_here=True)
        if name in RUN_METHODS:
            return self.run_step(strategy, node, args, kwargs)
        return None

    def run_step(self, strategy: Strategy, node: ast.Call, args: list, kwargs: dict):
        if self.replica is not None and not self.replica.is_default:
            # `run` requires the cross-replica context (distribute_lib.py: call_for_each_replica)
            self.report(RunInReplica(node, self.replica))
            return None
        step = args[0] if args else kwargs.get("fn")
        if isinstance(step, Alternatives):  # a step chosen per path (`step = a if c else b`)
            for index, option in enumerate(step.options):
                path = step.path_of(index)
                if not contradicts(path, self.conditions):
                    mark = self.assume_all(path)
                    self.run_step(strategy, node, [option], kwargs)
                    self.forget(mark)
            return None
        if isinstance(step, BoundMethod) and isinstance(step.receiver, Owner) and step.name in (
            TRAINING_METHODS | KERAS_LOOP_METHODS
        ) and _runs_keras_method(step.receiver, step.name):
            self.report(LoopInRun(node, strategy, step.name))
            return None
        receiver = None
        if isinstance(step, BoundMethod) and isinstance(step.receiver, (Instance, Owner)):
            # `strategy.run(self.train_step, ...)`: the method, on its instance
            cls = class_of(step.receiver)
            receiver, step = step.receiver, cls.method(step.name) if cls is not None else None
        if isinstance(step, Function):
            step_args = kwargs.get("args")
            values = _as_step_inputs(step, list(step_args.items) if isinstance(step_args, Sequence) else [])
            outer, self.replica = self.replica, strategy
            try:
                self.call_function(step, node, values, {}, self_value=receiver)
            finally:
                self.replica = outer
        return None

    def call_owner_method(self, owner: Owner, name: str, node: ast.Call, args: list, kwargs: dict) -> None:
        handler = _OWNER_METHODS.get(name)
        if handler is not None:
            handler(self, owner, name, node, args, kwargs)

    def owner_compile(self, model: Owner | None, method: str, node, args, kwargs) -> None:
        """``model`` None: a model tfscope cannot see (built dynamically), whose optimizer and
        metrics still have to agree with each other."""
        given = kwargs.get("optimizer", args[0] if args else _DEFAULT_OPTIMIZER)
        cls = class_of(model)
        if model is not None and (cls is None or cls.method("compile") is None):  # Keras's own compile
            model.compiled_functions = tuple(_argument(args, kwargs, index, name)
                                             for index, name in _COMPILED_CALLABLES.items())
            if model.compiled_functions[0] is not None:
                model.attrs["loss"] = model.compiled_functions[0]  # `Model.compile` keeps it as `self.loss`
        # optimizers built on different paths (`if ...: opt = A() else: opt = B()`) each reach it
        for optimizer in self.feasible(given) or [given]:
            mark = self.assume_all(getattr(optimizer, "condition", ()))
            self.compile_with(model, optimizer, node, kwargs.get("metrics"))
            self.forget(mark)

    def compile_with(self, model: Owner | None, optimizer, node, metrics) -> None:
        current = self.current()
        members = [model] if model is not None else []
        if isinstance(optimizer, Owner):
            members.append(optimizer)
        if model is not None and isinstance(optimizer, Owner):
            model.optimizer = optimizer
        elif model is not None and isinstance(optimizer, ast.Constant) and isinstance(optimizer.value, str):
            model.optimizer = optimizer.value
        elif model is not None and is_unknown(optimizer):
            # `compile(optimizer=get_optimizer(params))`: one exists
            model.optimizer = UnseenOptimizer(optimizer.owner.placement if isinstance(optimizer, MadeInScope) else None)
        if isinstance(metrics, Sequence):
            compiled_metrics = [owner for item in metrics.items for owner in self.feasible(item)]
            members.extend(compiled_metrics)
            if model is not None:
                model.compiled_metrics = (*model.compiled_metrics, *compiled_metrics)
        if current is not None:
            for member in members:
                self.meet(member, current, self.local_node(node), f"compiled inside the {current.describe()} scope", "compile")
        for strategy in {m.placement for m in members if m.placement is not None}:
            for member in members:
                if member.placement is not None and member.placement is current:
                    continue
                self.meet(member, strategy, self.local_node(node), f"compiled together with objects of the "
                                                        f"{strategy.describe()} scope", "combined")
        if model is None:
            return
        string_optimizer = model.optimizer if isinstance(model.optimizer, str) and not isinstance(optimizer, Owner) else None
        self.report(Compile(node, self.statement, self.frame.key, model, current, string_optimizer,
                            tuple(self.conditions)))

    def owner_keras_loop(self, model: Owner, method: str, node, args, kwargs) -> None:
        current = self.current()
        if current is not None:
            self.meet(model, current, self.local_node(node), f"run by `{method}` inside the {current.describe()} scope",
                       "loop")
        self.report(KerasLoop(node, model, current, method, tuple(self.conditions)))
        # Keras builds under the strategy the model recorded at construction here
        self.note_build(model, node, under_recorded_strategy=True)
        if method in TRAINING_METHODS:
            model.train(tuple(self.conditions))
            if isinstance(model.optimizer, Owner):
                model.optimizer.train(tuple(self.conditions))
        self.run_overridden_step(model, method, node, current)

    def run_overridden_step(self, model: Owner, method: str, node: ast.Call, current: Strategy | None) -> None:
        """`fit` runs the model's `train_step` (`evaluate`: `test_step`) through the strategy's `run`
        (the strategy the model was created under, else the one current at `fit`): the class's own
        step, else Keras's, which calls the loss and metrics compile was given."""
        strategy = model.placement or current
        if method not in _OVERRIDDEN_STEPS or strategy is None or strategy.is_default or self.replica is not None:
            return
        cls = class_of(model)
        step = cls.method(_OVERRIDDEN_STEPS[method]) if cls is not None else None
        outer, self.replica = self.replica, strategy
        try:
            if step is not None:
                self.call_function(step, node, [None], {}, self_value=model)
            elif _OVERRIDDEN_STEPS[method] in _STEPS_CALLING_COMPILED:
                self.call_compiled_functions(model, node)
        finally:
            self.replica = outer

    def owner_compiled_loss(self, model: Owner, method: str, node, args, kwargs) -> None:
        """A `train_step` of the project's own that calls `self.compiled_loss(...)` (or Keras's
        `compute_loss`) runs the loss compile was given, in the replica the step runs in."""
        cls = class_of(model)
        # (not from inside a compiled function: `compile(loss=model.compute_loss)` would call itself)
        if self.replica is not None and self.compiled_caller is None and (cls is None or cls.method(method) is None):
            self.call_compiled_functions(model, node)

    def call_compiled_functions(self, model: Owner, node: ast.Call) -> None:
        """Keras's step calls each loss and metric that compile was given with the batch's targets
        and predictions: the project's code among them runs (a Keras object's does not)."""
        for value in _flattened(model.compiled_functions):
            for option in value.options if isinstance(value, Alternatives) else (value,):
                if isinstance(option, Loss) and option.wrapped_by_compile is None:
                    option.wrapped_by_compile = tuple(self.conditions)
                code = _code_run_by_keras(option)
                if code is None:
                    continue
                outer, self.compiled_caller = self.compiled_caller, _name_of_callable(option)
                try:
                    self.dispatch(code, node, [None, None], {}, self.frame)
                finally:
                    self.compiled_caller = outer

    def owner_build(self, owner: Owner, method: str, node, args, kwargs) -> None:
        if owner.kind is Api.OPTIMIZER:
            owner.train(tuple(self.conditions))
        else:
            self.note_build(owner, node)

    def owner_assign(self, variable: Owner, method: str, node, args, kwargs) -> None:
        if self.replica is not None:
            variable.updated_in_step = True

    def owner_step(self, optimizer: Owner, method: str, node, args, kwargs) -> None:
        optimizer.train(tuple(self.conditions))
        if self.replica is not None:
            for owner in self.owners_named_in(node):
                owner.updated_in_step = True
        current = self.current()
        if self.replica is None and current is not None and not current.is_default:
            reason = f"trained by a step that runs inside the {current.describe()} scope"
            for owner in [optimizer, *self.owners_named_in(node)]:
                self.meet(owner, current, self.local_node(node), reason, "step")
        if self.replica is None:
            # outside `run` even an OptimizerV2 makes its slots at once, under the strategy current here
            for model in self.owners_named_in(node):
                strategy = model.placement
                if model.kind in (Api.MODEL, Api.LOADED_MODEL) and strategy is not None and not strategy.is_default:
                    self.meet(optimizer, strategy, self.local_node(node), f"used by a step that updates "
                              f"{model.describe()}, created in the {strategy.describe()} scope", "direct step")
        self.report_step(optimizer, method, node)

    def report_step(self, optimizer: Owner | None, method: str, node: ast.Call) -> None:
        # the function holding the step is called one frame up
        call = self.call_stack[-1] if self.call_stack else node
        statement = self.frames[-2].statement if len(self.frames) > 1 else self.statement
        trained = tuple(owner for owner in self.owners_named_in(node) if owner.kind in (Api.MODEL, Api.LOADED_MODEL))
        # a step in another module's helper is found at the call into it, in this file
        called_in_a_loop = len(self.frames) > 1 and self.frames[-1].loop_depth_at_entry > 0
        self.report(OptimizerStep(node, method, optimizer, self.replica, self.current(), self.local_node(call), statement,
                                  self.root.context_known, trained, called_in_a_loop, tuple(self.conditions),
                                  self.root, self.step_pick()),
                    located_here=True)

    def owners_named_in(self, call: ast.Call) -> list[Owner]:
        """Objects a call's arguments name (`model` in `zip(grads, model.trainable_variables)`)."""
        found: list[Owner] = []
        for argument in [*call.args, *(keyword.value for keyword in call.keywords)]:
            for name in ast.walk(argument):
                if isinstance(name, ast.Name):
                    # each object the name may hold on this path (`model` built in one of two branches)
                    for owner in self.feasible(self.frame.lookup(name.id)):
                        if owner not in found:
                            found.append(owner)
        return found

    def note_build(self, model: Owner, node: ast.AST, under_recorded_strategy: bool = False) -> None:
        """The first call or build creates a lazy model's weights, under the current scope."""
        if model.built:
            return
        building_under = self.replica or self.current()
        # its `call` builds the layers it keeps as it goes: they are built with it, not on their own later
        self.build_all(_with_kept_layers(model), None if under_recorded_strategy else building_under)
        if model.lazy:
            # a build in a method of the model's own (`model.build_graph(shape)`) belongs to that call
            depth = len(self.frames) - 1
            while depth > 0 and runs_on(self.frames[depth], model):
                depth -= 1
            if depth < len(self.frames) - 1:
                site, statement, key = self.call_stack[depth], self.frames[depth].statement, self.frames[depth].key
            else:
                site, statement, key = node, self.statement, self.frame.key
            self.report(FirstBuild(site, statement, key, model, building_under, under_recorded_strategy,
                                   tuple(self.conditions)),
                        located_here=self.frames[depth].module is self.tree)

    def build_all(self, owners: list[Owner], building_under: Strategy | None) -> None:
        for built in owners:
            if self.first_builds:
                self.first_builds[-1].append((built, built.placement))
            built.built = True
            if (built.lazy and built.placement is None
                    and building_under is not None and not building_under.is_default):
                # constructed outside, but its weights appear here, under the strategy (`Strategy.run`
                # enters the scope in each replica): they are distributed
                built.placement = building_under

    def note_unseen_method(self, instance: Instance) -> None:
        """A method an object inherits from a class tfscope cannot see (OpenNMT's `create_variables`)
        may call the layers it keeps, and so build them, under the current scope: none is first
        built later."""
        kept = [held for value in instance.attrs.values() if isinstance(value, Owner) and not value.built
                for held in _with_kept_layers(value)]
        self.build_all(list(dict.fromkeys(kept)), self.replica or self.current())

    def note_method_after_reset(self, owner: Owner, method: str, node: ast.AST, kwargs: dict) -> None:
        """A method of a model or layer after `initialize_tpu_system` wiped it. Loading every weight
        back assigns each variable, and assigning re-creates a variable's missing buffer
        (`AssignVariableOp`: `LookupOrCreateResource`): the object is whole again. Training reads
        the optimizer compile gave it, too."""
        if method in WEIGHT_WRITERS and not any(_may_hold(kwargs, keyword) for keyword in PARTIAL_LOADS):
            for written in (owner, *owner.holds()):
                written.wiped_by = None
            return
        reported = self.note_use_after_reset(owner, node)
        if not reported and method in TRAINING_METHODS and isinstance(owner.optimizer, Owner):
            self.note_use_after_reset(owner.optimizer, node)

    def note_use_after_reset(self, owner: Owner, node: ast.AST) -> bool:
        """Whether ``owner`` was wiped (and so is reported here)."""
        if owner.wiped_by is None:
            return False
        self.report(UsedAfterTpuReset(self.local_node(node), owner, owner.wiped_by))
        owner.wiped_by = None  # one finding per reset
        return True

    def owner_add(self, model: Owner, method: str, node, args, kwargs) -> None:
        """`Sequential.add(layer)`: a new layer makes its weights where the stack is built, a model
        brings its own; a layer tfscope cannot see (taken from another model's `.layers`, whose
        weights exist) tells nothing."""
        layer = args[0] if args else kwargs.get("layer")
        if model.constructor != "Sequential" or not isinstance(layer, Owner):
            return None
        if layer.kind in (Api.MODEL, Api.LOADED_MODEL):
            model.parts.append(layer)
            model.weightless = False
        elif layer.kind is Api.LAYER and layer.makes_weights():
            model.fresh_layers, model.weightless = True, False
        return None

    def call_owner(self, owner: Owner, node: ast.Call, args: list):
        """Calling a layer or model: functional graph building, or a forward pass."""
        self.note_use_after_reset(owner, node)
        if owner.kind is Api.LAYER and any(map(holds_keras_tensor, args)):
            call_site = self.new_owner(Api.LAYER, owner.label, node)
            call_site.name, call_site.constructor, call_site.weightless = owner.name, owner.constructor, owner.weightless
            return Tensor(tensor_producers(args) + (call_site,))
        if owner.kind in (Api.MODEL, Api.LAYER, Api.LOADED_MODEL):
            self.note_build(owner, node)
            if any(map(holds_keras_tensor, args)):
                return Tensor(tensor_producers(args) + (owner,))
        return None

    def call_loss(self, loss: Loss, node: ast.Call):
        if self.replica is not None and contradicts(self.replica.condition, self.conditions):
            return None  # a path that runs only where this strategy does not exist
        wrapped = loss.wrapped_by_compile
        if wrapped is not None and all(condition in self.conditions for condition in wrapped):
            return None  # compile's container wrapped it earlier on this path: Keras checks it no more
        scope = self.current()
        open_scope = scope if scope is not None and not scope.is_default else None
        # a script's run calls it in one module, made and given its reduction in others (a registry's class)
        reduced_elsewhere = (self.external_entry is None and loss.reduction_module is not None
                             and self.frame.module not in (loss.reduction_module, loss.made_in))
        self.report(LossCalled(loss.node, loss.label, loss.default_reduction, self.replica, self.local_node(node),
                               loss.reduction_site or loss.node, open_scope,
                               self.root.context_known or self.root.test_entry, loss, self.compiled_caller,
                               reduced_elsewhere),
                    located_here=loss.sited_here)
        return None

    def meet_distributed_parts(self, model: Owner, node: ast.Call, values: list) -> None:
        """A model wrapping sub-models built in a scope records its own strategy (Keras 2) or none;
        `fit` then steps the distributed parts under the wrong one."""
        for part in values:
            if (isinstance(part, Owner) and part.kind in (Api.MODEL, Api.LOADED_MODEL)
                    and part.placement is not None and not part.placement.is_default):
                self.meet(model, part.placement, self.local_node(node), f"built from {part.describe()}, which is "
                           f"created in the {part.placement.describe()} scope", "combined")
                return


# The step method each Keras loop runs, when a model class defines its own.
_OVERRIDDEN_STEPS = {
    "fit": "train_step", "train_on_batch": "train_step",
    "evaluate": "test_step", "test_on_batch": "test_step",
    "predict": "predict_step", "predict_on_batch": "predict_step",
}

# Keras's own steps that call the loss and metrics compile was given (`predict_step` calls neither).
_STEPS_CALLING_COMPILED = frozenset({"train_step", "test_step"})
# compile's parameters that take functions Keras calls per replica, by position.
_COMPILED_CALLABLES = {1: "loss", 2: "metrics", 4: "weighted_metrics"}

_OWNER_METHODS = {
    "compile": ObjectMethods.owner_compile,
    "compiled_loss": ObjectMethods.owner_compiled_loss,
    "compute_loss": ObjectMethods.owner_compiled_loss,
    "fit": ObjectMethods.owner_keras_loop,
    "evaluate": ObjectMethods.owner_keras_loop,
    "predict": ObjectMethods.owner_keras_loop,
    "train_on_batch": ObjectMethods.owner_keras_loop,
    "test_on_batch": ObjectMethods.owner_keras_loop,
    "predict_on_batch": ObjectMethods.owner_keras_loop,
    "add": ObjectMethods.owner_add,
    "build": ObjectMethods.owner_build,
    "create_variables": ObjectMethods.owner_build,  # a TF-Agents network's first call
    "apply_gradients": ObjectMethods.owner_step,
    "minimize": ObjectMethods.owner_step,
    "load_weights": Restores.owner_load_weights,
    "assign": ObjectMethods.owner_assign,
    "assign_add": ObjectMethods.owner_assign,
    "assign_sub": ObjectMethods.owner_assign,
    "restore": Restores.owner_restore,
    "read": Restores.owner_restore,
}


def _with_kept_layers(model: Owner) -> list[Owner]:
    """``model`` and the unbuilt models and layers it keeps, however deep (see ``Owner.holds``)."""
    found, unvisited = [model], [model]
    while unvisited:
        for held in unvisited.pop().holds():
            if not held.built and held not in found:
                found.append(held)
                unvisited.append(held)
    return found


def _argument(args: list, kwargs: dict, index: int, name: str):
    return kwargs.get(name, args[index] if index < len(args) else None)


def _flattened(value) -> list:
    """The items of nested lists and dicts (`loss={"mask": dice, "box": "mse"}`)."""
    if isinstance(value, (list, tuple)):
        return [item for element in value for item in _flattened(element)]
    if isinstance(value, Sequence):
        return _flattened(value.items)
    return [value]


def _runs_keras_method(owner: Owner, method: str) -> bool:
    """``method`` of the model is Keras's own: its class (of the project) does not define it (a
    `train_on_batch(x, optimizer)` of its own is one step, not Keras's training loop), and it is
    not a loaded model, whose class, saved with it, tfscope cannot read."""
    cls = class_of(owner)
    return owner.kind is not Api.LOADED_MODEL and (cls is None or cls.method(method) is None)


def _code_run_by_keras(value) -> Function | BoundMethod | Instance | None:
    """What of the project's runs when Keras calls ``value``: a function, an object's `__call__`,
    or the `call` that a loss class's `Loss.__call__` runs (compile exempts only that loss object
    from the reduction check, not the losses its code calls)."""
    if isinstance(value, (Function, BoundMethod)) or (isinstance(value, Instance) and value.cls.method("__call__")):
        return value  # calling an instance runs its `__call__` (see ``Calls.dispatch``)
    if isinstance(value, Loss) and value.cls is not None:
        name = "__call__" if value.cls.method("__call__") is not None else "call"
        return BoundMethod(value, name) if value.cls.method(name) is not None else None
    return None


def _name_of_callable(value) -> str:
    if isinstance(value, Function):
        return value.node.name
    if isinstance(value, (Instance, Loss)) and value.cls is not None:
        return value.cls.node.name
    return value.name


def _as_step_inputs(step: Function, values: list) -> list:
    """`run`'s arguments are the step's inputs: a plain variable there is read as a value (TPU's
    `replicate` converts inputs to tensors; each mirrored replica reads it), which is fine, unless
    the step updates it through its parameter (`counter.assign_add(...)`)."""
    if not any(isinstance(value, Owner) and value.kind is Api.VARIABLE for value in values):
        return values  # nothing to read as a value: the step's body need not be searched
    parameters = [p.arg for p in step.node.args.posonlyargs + step.node.args.args]
    if step.owner_class is not None:  # a method: `self` comes first
        parameters = parameters[1:]
    updated = _updated_names(step.node)
    return [Tensor() if isinstance(value, Owner) and value.kind is Api.VARIABLE
            and (index >= len(parameters) or parameters[index] not in updated) else value
            for index, value in enumerate(values)]


def _updated_names(function: ast.AST) -> set[str]:
    return {node.func.value.id for node in ast.walk(function)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr.startswith("assign") and isinstance(node.func.value, ast.Name)}


def _may_hold(kwargs: dict, keyword: str) -> bool:
    """Whether a call passed ``keyword`` a value that is not a literal false (`by_name=True`, a flag)."""
    if keyword not in kwargs:
        return False
    value = kwargs[keyword]
    return not (isinstance(value, ast.Constant) and not value.value)
