"""TF/Keras API calls, handled by what the catalog says each name creates."""

from __future__ import annotations

import ast
import re

from tfscope.astutil import dotted_name, per_node, text_of
from tfscope.model import loss_reduction
from tfscope.model.entities import Owner, Strategy
from tfscope.model.facts import (
    SingleWorkerEvidence,
    StartupAfterOps,
    StrategyRecreated,
)
from tfscope.model.joins import contradicts, existence_of
from tfscope.model.values import (
    ApiResult,
    CheckpointManager,
    Dataset,
    ExitStackValue,
    Function,
    Loss,
    ScopeContext,
    Sequence,
    Tensor,
    is_text,
    tensor_producers,
)
from tfscope.resolve.catalog import (
    LAZILY_BUILT_MODELS,
    STARTUP_STRATEGIES,
    VARIABLE_OWNERS,
    Api,
    builds_at_first_call,
    classify,
    initialises_eager_context,
)

# Catalog kinds that set TensorFlow up rather than run it (may precede a strategy's creation).
_NOT_TF_OPS = frozenset(
    {None, Api.STRATEGY, Api.GET_STRATEGY, Api.SET_STRATEGY, Api.TPU_INIT,
     Api.TF_FUNCTION, Api.NULL_CONTEXT, Api.EXIT_STACK, Api.CONTEXT_MANAGER, Api.ENVIRON,
     Api.SCHEDULE, Api.LOSS}
)
# Kinds a checkpoint ties to the strategy of the objects it tracks (host-side counters stay apart).
_CHECKPOINTED_TOGETHER = frozenset({Api.MODEL, Api.OPTIMIZER, Api.METRIC, Api.LOADED_MODEL})
# Libraries whose calls run TensorFlow ops (tfds builds tf.data pipelines).
_TF_OP_ROOTS = ("tensorflow.", "keras.", "tensorflow_datasets.", "tensorflow_hub.")


# The ops before the first strategy that are kept, each with its path: the first one on the
# strategy's path is named.
_EARLY_OPS_KEPT = 16
# Strategies whose first argument is the list of devices they replicate over.
_STRATEGIES_GIVEN_DEVICES = frozenset({"MirroredStrategy"})


# Keras 2's LossScaleOptimizer does not run OptimizerV2's constructor: it hands `iterations`, slots,
# weights and checkpoint tracking to the optimizer it wraps, and its two loss-scale scalars are
# updated once per step in cross-replica context (`merge_call`), so wrapping an optimizer made in
# the scope outside it works ("frequently the optimizer is created outside the strategy's scope",
# keras/mixed_precision/loss_scale_optimizer.py, v2.7.0). By name, the Keras versions the file may
# read as where the name is that class: the `experimental` one (TF 2.1-2.8) exists in Keras 2 only,
# so code that calls it runs on Keras 2 whatever else the file suggests.
_DELEGATING_OPTIMIZERS = {"keras.mixed_precision.LossScaleOptimizer": frozenset({2}),
                          "keras.mixed_precision.experimental.LossScaleOptimizer": frozenset({2, 3})}


class TfApiCalls:

    # API calls, by what the catalog says the name creates

    def call_api(self, name: str, node: ast.Call, args: list, kwargs: dict):
        kind = classify(name)
        if (not self.startup_done and len(self.early_tf_ops) < _EARLY_OPS_KEPT and kind not in _NOT_TF_OPS
                and name.startswith(_TF_OP_ROOTS) and initialises_eager_context(name)):
            # another module's op: the call into it; on the path it runs on
            self.early_tf_ops.append((self.local_node(node), tuple(self.conditions)))
        why = _single_worker_evidence(name, node)
        if why:
            self.report(SingleWorkerEvidence(node, why))
        handler = _API_CALLS.get(kind)
        if handler is not None:
            return handler(self, name, node, args, kwargs)
        if kind in VARIABLE_OWNERS:
            return self.create_owner(kind, name, node, args, kwargs)
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
        if kind is None:  # a library's code tfscope does not model (a TF-Agents agent)
            self.meet_handed_with_strategy(name.rsplit(".", 1)[-1], node, [*args, *kwargs.values()])
        producers = tensor_producers([*args, *kwargs.values()])
        if producers:
            return Tensor(producers)
        # a strategy class the catalog does not list stays unknown: its name may still tell
        return ApiResult(name) if kind is not None and not name.endswith("Strategy") else None

    def api_strategy(self, name, node, args, kwargs):
        kind = name.rsplit(".", 1)[-1]
        strategy = self.new_strategy(kind, node)
        strategy.single_replica = kind == "OneDeviceStrategy" or _lists_one_device(kind, node)
        resolver = args[0] if args else kwargs.get("tpu_cluster_resolver", kwargs.get("cluster_resolver"))
        if kind == "TPUStrategy" and isinstance(resolver, ApiResult):
            strategy.tpu_system = resolver
            strategy.device_subset = "device_assignment" in kwargs or len(args) > 1
        return strategy

    def new_strategy(self, kind: str, node: ast.Call) -> Strategy:
        strategy = Strategy(kind, self.local_node(node), self.root, label=f"{kind}()")
        strategy.condition = (*self.conditions, (existence_of(strategy), True))
        self.model.strategies.append(strategy)
        # creations on paths that exclude each other (`if eval: self.eval() else: self.train()`) are one
        earlier = self.strategy_creations.setdefault((self.root, node), [])
        again = [writes for conditions, writes in earlier if not contradicts(conditions, self.conditions)]
        earlier.append((tuple(self.conditions), self.cluster_writes))
        if self.loop_depth:
            rewritten = any(_rewrites_cluster_config(loop) for loop in self.loops)
            self.report(StrategyRecreated(strategy, "in a loop", rewritten))
        elif again:
            rewritten = any(writes < self.cluster_writes for writes in again)
            self.report(StrategyRecreated(strategy, "by a function called more than once", rewritten))
        if kind in STARTUP_STRATEGIES:
            self.check_startup(node, f"`{kind}`", kind)
        return strategy

    def check_startup(self, node: ast.AST, what: str, kind: str) -> None:
        """Only the program's first collective/TPU set-up must precede every op; later ones
        (TPUStrategy after its own init, a deliberate re-initialisation) find the runtime ready."""
        if self.startup_done or not self.root.context_known:
            return
        self.startup_done = True
        # an op on a path that excludes this one (`if single_gpu: ... else: MultiWorker...`) ran elsewhere
        first = next(((op, path) for op, path in self.early_tf_ops if not contradicts(path, self.conditions)), None)
        if first is not None:
            op, path = first
            only_on = tuple(condition for condition in path if condition not in self.conditions)
            self.report(StartupAfterOps(node, what, op, kind, self.cluster_set, only_on))

    def api_tpu_init(self, name, node, args, kwargs):
        self.check_startup(node, f"`{name.replace('tensorflow.', 'tf.')}`", "tpu_init")
        for owner in self.model.owners:
            # (re-)initialising wipes the TPU: variables created there before are gone
            if owner.placement is not None and owner.placement.kind == "TPUStrategy" and owner.wiped_by is None:
                owner.wiped_by = self.local_node(node)
        return None

    def api_get_strategy(self, name, node, args, kwargs):
        return self.current_strategy_value()

    def api_set_strategy(self, name, node, args, kwargs):
        strategy = args[0] if args else kwargs.get("strategy")
        if isinstance(strategy, Strategy):
            self.set_on[id(strategy)] = tuple(self.conditions)
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
        reduction = loss_reduction.of_api_loss(node)
        return Loss(node, name.rsplit(".", 1)[-1], reduction.default, reduction.site, tuple(self.conditions),
                    sited_here=self.external_entry is None, reduction_module=self.frame.module,
                    made_in=self.frame.module)

    def api_checkpoint(self, name, node, args, kwargs):
        owner = self.new_owner(Api.CHECKPOINT, "tf.train.Checkpoint", node)
        owner.tracked = [tracked for value in kwargs.values() for tracked in self.feasible(value)]
        strategies = {m.placement for m in owner.tracked if m.placement is not None}
        for strategy in strategies:
            self.meet(owner, strategy, self.local_node(node), f"tracking objects created in the {strategy.describe()} scope",
                       "checkpoint")
            for member in owner.tracked:
                if member.kind in _CHECKPOINTED_TOGETHER:
                    self.meet(member, strategy, self.local_node(node), "tracked by the same `tf.train.Checkpoint` as "
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
            self.meet(model, strategy, self.local_node(node), f"trained by `TFTrainer` under `{dotted}.strategy`", "loop")
        return None

    def api_checkpoint_manager(self, name, node, args, kwargs):
        checkpoint = args[0] if args else kwargs.get("checkpoint")
        return CheckpointManager(checkpoint if isinstance(checkpoint, Owner) else None)

    def create_owner(self, kind: Api, name: str, node: ast.Call, args: list, kwargs: dict) -> Owner:
        label = name.replace("tensorflow.", "tf.")
        owner = self.new_owner(kind, label, node)
        owner.optimizer_v2 = kind is Api.OPTIMIZER and (".legacy." in name or self.optimizer_v2_fallback > 0
                                                        or not _OPTIMIZER_V2_KEYWORDS.isdisjoint(kwargs))
        owner.untrainable = kind is Api.VARIABLE and _untrainable(args, kwargs)
        owner.lazy = (kind is Api.MODEL and name.startswith(LAZILY_BUILT_MODELS)
                      or kind is Api.LAYER and builds_at_first_call(name))
        constructor = name.rsplit(".", 1)[-1]
        owner.weightless = ((kind is Api.METRIC and _built_at_first_update(constructor, node))
                            or (name == "tensorflow_hub.KerasLayer" and _loads_a_text_preprocessor(node, args, kwargs)))
        if kind is Api.MODEL and constructor == "Model":
            outputs = kwargs.get("outputs", args[1] if len(args) > 1 else None)
            owner.parts = list(tensor_producers([outputs]))
            owner.functional = "outputs" in kwargs or len(args) > 1
        elif kind is Api.MODEL and constructor == "Sequential":
            # fresh layers are built by the Sequential itself; built sub-models bring their weights
            layers = kwargs.get("layers", args[0] if args else None)
            items = layers.items if isinstance(layers, Sequence) else ()
            owner.parts = [item for item in items if isinstance(item, Owner) and item.kind in (Api.MODEL, Api.LOADED_MODEL)]
            # a stack of weightless layers (`Resizing`, `Rescaling`) makes no weight wherever it is built,
            # nor does an empty one until `add` gives it a layer that does (see ``owner_add``)
            owner.weightless = layers is None or (bool(items) and all(
                isinstance(item, Owner) and item.kind is Api.LAYER and not item.makes_weights() for item in items))
            owner.fresh_layers = any(isinstance(item, Owner) and item.kind is Api.LAYER and item.makes_weights()
                                     for item in items)
        if self.model.keras_version in _DELEGATING_OPTIMIZERS.get(name, ()):
            owner.weightless = True  # its state is the wrapped optimizer's, judged where that one is made
        for value in [*args, *kwargs.values()]:
            self.mark_handed_over(value)
        self.meet_handed_variables(owner, node, [*args, *kwargs.values()])
        return owner

    def meet_handed_variables(self, owner: Owner, node: ast.AST, values: list) -> None:
        """A `tf.Variable` handed to a layer or model joins its weights: made outside the scope the
        layer is made in, Keras raises "not created in the distribution strategy scope" at compile."""
        strategy = owner.placement
        if strategy is None or strategy.is_default:
            return
        items = [item for value in values for item in (value.items if isinstance(value, Sequence) else (value,))]
        variables = [v for item in items for v in self.feasible(item) if v.kind is Api.VARIABLE]
        if not variables:  # most layers are handed none: the reason would be spelt out for nothing
            return
        self.meet(variables, strategy, self.local_node(node),
                  f"handed to {owner.describe()}, which is created in the {strategy.describe()} scope", "handed")

    def new_owner(self, kind: Api, label: str, node: ast.AST) -> Owner:
        owner = self.unregistered_owner(kind, label, node)
        self.model.owners.append(owner)
        return owner

    def unregistered_owner(self, kind: Api, label: str, node: ast.AST) -> Owner:
        placement = self.replica or self.current()
        if self.external_entry is not None:
            node, statement, key = self.external_entry
        else:
            statement, key = self.statement, self.frame.key
        owner = Owner(kind, label, node, statement, placement, self.root, key=key, condition=tuple(self.conditions))
        owner.site_frame = self.frame
        self.made_owners.append(owner)
        return owner


_API_CALLS = {
    Api.STRATEGY: TfApiCalls.api_strategy,
    Api.GET_STRATEGY: TfApiCalls.api_get_strategy,
    Api.SET_STRATEGY: TfApiCalls.api_set_strategy,
    Api.TPU_INIT: TfApiCalls.api_tpu_init,
    Api.TF_FUNCTION: TfApiCalls.api_tf_function,
    Api.NULL_CONTEXT: TfApiCalls.api_null_context,
    Api.EXIT_STACK: TfApiCalls.api_exit_stack,
    Api.INPUT: TfApiCalls.api_input,
    Api.DATA: TfApiCalls.api_data,
    Api.LOSS: TfApiCalls.api_loss,
    Api.CHECKPOINT: TfApiCalls.api_checkpoint,
    Api.CHECKPOINT_MANAGER: TfApiCalls.api_checkpoint_manager,
    Api.TRAINER: TfApiCalls.api_trainer,
}


def _lists_one_device(kind: str, node: ast.Call) -> bool:
    """`MirroredStrategy(["/gpu:0"])`, `devices=("/gpu:0",)`: a list of one device written out (a
    comprehension over the machine's GPUs may hold any number)."""
    devices = next((keyword.value for keyword in node.keywords if keyword.arg == "devices"),
                   node.args[0] if node.args and kind in _STRATEGIES_GIVEN_DEVICES else None)
    return (isinstance(devices, (ast.List, ast.Tuple)) and len(devices.elts) == 1
            and not isinstance(devices.elts[0], ast.Starred))


# Keywords only OptimizerV2 (TensorFlow before 2.11) reads: the new optimizers ignore `lr` and
# refuse `decay` (`_process_kwargs` in Keras 2.11-2.15's optimizer.py), Keras 3 refuses both.
_OPTIMIZER_V2_KEYWORDS = frozenset({"lr", "decay"})
# Calls after which no multi-worker collective set-up can fail (see TFS014's docs).
_GRAPH_MODE_CALLS = ("disable_v2_behavior", "disable_eager_execution")
_TF1_ONLY_APIS = ("tensorflow.Session", "tensorflow.contrib.")


def _single_worker_evidence(name: str, node: ast.Call) -> str:
    if name.startswith("tensorflow.") and name.rsplit(".", 1)[-1] in _GRAPH_MODE_CALLS:
        return "TF1 graph mode"
    if name.startswith(_TF1_ONLY_APIS):
        return "TensorFlow 1 (graph mode by default)"
    if (name == "os.environ.pop" and node.args and isinstance(node.args[0], ast.Constant)
            and node.args[0].value == "TF_CONFIG"):
        return "`TF_CONFIG` removed"
    return ""


def _built_at_first_update(constructor: str, node: ast.Call) -> bool:
    """`AUC(multi_label=True)` without `num_labels` makes its variables at its first `update_state`,
    under the strategy current there (a step `fit` or `run` runs): `AUC.__init__` builds only when
    it knows the labels (tf_keras/metrics/confusion_metrics.py, keras/src/metrics/confusion_metrics.py)."""
    if constructor != "AUC":
        return False
    literals = {k.arg: k.value.value for k in node.keywords if k.arg and isinstance(k.value, ast.Constant)}
    given = {k.arg for k in node.keywords}
    return literals.get("multi_label") is True and ("num_labels" not in given or literals.get("num_labels") is None)


# the model's own segment of a TF Hub handle (`.../bert_en_uncased_preprocess/3/uncompressed`)
_PREPROCESSOR_NAME = re.compile(r"(?:^|[_-])preprocess(?:or|ing)?$")


def _loads_a_text_preprocessor(node: ast.Call, args: list, kwargs: dict) -> bool:
    """`hub.KerasLayer(".../bert_en_uncased_preprocess/3")`: TF Hub's text preprocessing models
    (named `*_preprocess`, `*-preprocess`) tokenize with lookup tables and hold no variables (their
    model cards: "no trainable parameters ... can be used in an input pipeline outside the training
    loop"). The handle's text decides, or the expression naming it when its value is not known."""
    handle = kwargs.get("handle", args[0] if args else None)
    if is_text(handle):
        return any(_PREPROCESSOR_NAME.search(part) for part in handle.value.lower().rstrip("/").split("/")[-3:])
    spelled = next((k.value for k in node.keywords if k.arg == "handle"), node.args[0] if node.args else None)
    return spelled is not None and "preprocess" in text_of(spelled).lower()


def _untrainable(args: list, kwargs: dict) -> bool:
    """`tf.Variable(0.01, trainable=False)`, or an integer counter (`tf.Variable(0)`): no gradient
    ever reaches it."""
    trainable = kwargs.get("trainable")
    if isinstance(trainable, ast.Constant) and trainable.value is False:
        return True
    initial = args[0] if args else kwargs.get("initial_value")
    return isinstance(initial, ast.Constant) and type(initial.value) is int


@per_node
def _rewrites_cluster_config(loop: ast.AST) -> bool:
    """Whether a pass of ``loop`` sets `os.environ["TF_CONFIG"]` (as the interpreter counts such
    writes, see ``Bindings.bind``): the next pass's multi-worker strategy reads another cluster or
    task."""
    return any(isinstance(target, ast.Subscript) and text_of(target.value).endswith("environ")
               and isinstance(target.slice, ast.Constant) and target.slice.value == "TF_CONFIG"
               for node in ast.walk(loop) if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign))
               for target in (node.targets if isinstance(node, ast.Assign) else [node.target]))
