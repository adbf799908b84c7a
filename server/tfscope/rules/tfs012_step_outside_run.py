from tfscope.astutil import text_of
from tfscope.diagnostics import CallDirectly, CallInstead, RunThroughStrategy, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import LoopInRun, OptimizerStep, RunInReplica
from tfscope.model.joins import contradicts
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a training step that applies gradients (`optimizer.apply_gradients`,
`optimizer.minimize`) to a distributed optimizer, or inside a strategy scope, but is called
directly instead of through `strategy.run`, for Keras training loops (`model.fit`,
`model.train_on_batch`) passed to `strategy.run` (not a method of that name the model's own class
defines, a one-step `train_on_batch(x, optimizer)`, nor one of a loaded model, whose class is
saved with it and unknown here), and for `strategy.run` called inside a step
that already runs once per replica (a model's `train_step`, which `fit` runs through the
strategy's `run`, or a function passed to `run`).

## Why is this bad?
Outside `strategy.run` the code runs in cross-replica context: TensorFlow raises
`` `apply_gradients() cannot be called in cross-replica context. Use `tf.distribute.Strategy.run`
to enter replica context. `` or `` `handle` is not available outside the replica context ``.
Outside every scope the step runs under the default strategy, and an optimizer whose variables
belong to a strategy creates its slots there: `Trying to create optimizer slot variable under the
scope for tf.distribute.Strategy (...), which is different from the scope used for the original
variable` (OptimizerV2 `add_slot`); nothing is replicated. `fit` is itself a whole distributed
loop and must not run per replica. `run` itself needs the cross-replica context: in a replica
of a strategy it raises `Method requires being in cross-replica context, use
get_replica_context().merge_call()` (tensorflow/python/distribute/distribute_lib.py:
`call_for_each_replica` calls `_require_cross_replica_or_default_context_extended`), and Keras
already runs a model's `train_step` through `self.distribute_strategy.run`.

A strategy over one device (`OneDeviceStrategy`, `MirroredStrategy(devices=["/gpu:0"])`) keeps
each variable once: a step outside `run` and every scope updates that copy, and from TF 2.5
OptimizerV2 makes its slots under the strategy it was created in (`add_slot` in
`optimizer_v2.py` enters `_distribution_strategy_scope()` when no strategy is current; the
TF 2.11+ optimizers update through the strategy they were created under). So only the
cross-replica case (inside its scope) is reported for it, and for a strategy handed in when
every strategy the module makes is one. Not seen: on TF 2.4 and earlier, an optimizer with
slots (Adam, not plain SGD) stepped that way raises the slot error above.

When the step called is one a function of the code picked and returned (`train_fn, eval_fn =
self.step_functions()`, the assignment that bound the step run on that path), and a sibling of
that function with the same parameters (`distributed_step_functions`) returns steps that each
call `run` of a strategy the code also enters or reduces with, the finding is at the pick:
calling the sibling is the fix, and the call of the step is a related location.

In a function nobody in the file calls (a trainer class's method, a library's step), the caller
may still pass the step to `strategy.run`; it is reported only when the function enters the
scope itself, or when the file's own loop calls the step directly.

## Example
```python
@tf.function
def train_step(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(y, model(x, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

for x, y in dist_dataset:
    train_step(x, y)
```

## Use instead
```python
for x, y in dist_dataset:
    strategy.run(train_step, args=(x, y))
```

## Fix safety
"Run it through `strategy.run`" rewrites the direct call `train_step(x, y)` as
`strategy.run(train_step, args=(x, y))` (keywords as `kwargs={...}`). It is unsafe: the step
now runs once per replica and returns per-replica values, which code using its result may
not expect; it is not offered for `*args` or `**kwargs`. "Call `distributed_step_functions`
instead" renames the picking call; also unsafe: the steps it returns reduce across replicas and
may return other values. "Call it directly, not through `strategy.run`" turns
`strategy.run(model.fit, args=(x, y))` into `model.fit(x, y)`; also unsafe: it returns the loop's
own result, and `fit` then distributes itself. It is not offered for `fn=`, `kwargs=`,
`options=` or starred arguments.
"""


def check(model: SemanticModel):
    picks_reported: set[int] = set()
    for event in model.events_of(OptimizerStep):
        strategy = _strategy_of(event)
        if event.replica is not None or strategy is None or strategy.is_default:
            continue
        if contradicts(strategy.condition, event.condition):  # the strategy does not exist on this path
            continue
        if event.scope is None and _keeps_one_copy(strategy, model):
            continue
        # in a function nobody calls, its caller may run it through `run`: only a scope the function
        # enters itself, or the file's own loop calling it directly, shows it does not
        if not event.context_known and event.scope is None and not event.called_in_a_loop:
            continue
        context = ("runs in cross-replica context" if event.scope is not None else
                   f"runs outside `{strategy.label or 'strategy'}.run` and every scope, under the default strategy")
        if event.picked is not None:
            if id(event.picked.call) not in picks_reported:
                picks_reported.add(id(event.picked.call))
                yield _picked_violation(event, strategy, context)
            continue
        yield Violation(
            node=event.call,
            message=f"`{event.method}` of {_describe_optimizer(event)} {context}: "
            f"run the step through `{strategy.label or 'strategy'}.run(step_fn, args=...)`",
            intent=RunThroughStrategy(event.call, _names(model, strategy)) if event.call is not event.node else None,
        )
    for event in model.events_of(LoopInRun):
        yield Violation(
            node=event.node,
            message=f"`{event.method}` is a whole Keras training loop, not a step; do not pass it to "
            f"`{event.strategy.label or 'strategy'}.run`",
            intent=CallDirectly(event.node),
        )
    for event in model.events_of(RunInReplica):
        yield Violation(
            node=event.node,
            message=f"`{text_of(event.node.func)}` is called in replica context, in a step that "
            f"already runs once per replica of {event.outer.describe()}: TensorFlow raises `Method requires "
            f"being in cross-replica context`; call the function directly",
        )


def _picked_violation(event: OptimizerStep, strategy, context: str) -> Violation:
    """The step came from a function whose sibling picks steps that go through `run`: the fix is
    to call that sibling, where the step is picked."""
    pick = event.picked
    return Violation(
        node=pick.call,
        message=f"`{pick.picker}` picks a step in which `{event.method}` of {_describe_optimizer(event)} "
        f"{context}; `{pick.counterpart}` returns the steps that go through `{strategy.label or 'strategy'}.run`: "
        f"call it instead",
        related=((event.call, "the picked step is called here"),),
        intent=CallInstead(pick.call, pick.counterpart),
    )


def _keeps_one_copy(strategy, model: SemanticModel) -> bool:
    """A strategy over one device, whose variables exist once; one handed in (a parameter, of
    unknown kind) may be any the module itself constructs: all of them over one device."""
    if strategy.node is not None or strategy.kind != "unknown":  # on every path the name may hold it
        return all(made.single_replica for made in (strategy, *strategy.alternatives))
    constructed = [made for made in model.strategies if made.is_constructed]
    return bool(constructed) and all(made.single_replica for made in constructed)


def _strategy_of(event: OptimizerStep):
    """The strategy the step's objects belong to: the optimizer's, the scope around it, or that of
    the models whose variables it updates."""
    placements = [event.optimizer.placement if event.optimizer is not None else None, event.scope,
                  *(model.placement for model in event.trained)]
    return next((p for p in placements if p is not None and not p.is_default), None)


def _describe_optimizer(event: OptimizerStep) -> str:
    return event.optimizer.describe() if event.optimizer is not None else f"`{text_of(event.node.func.value)}`"


def _names(model: SemanticModel, strategy) -> tuple[str, ...]:
    """What the strategy goes by, the module's name first (the fix keeps the one that reaches it)."""
    names = [strategy.names.get(model.module), *strategy.names.values(), strategy.label]
    return tuple(dict.fromkeys(name for name in names if name and not name.endswith(")")))


RULE = Rule(
    code="TFS012",
    name="step-outside-run",
    severity=Severity.ERROR,
    summary="Training step run in cross-replica context instead of through strategy.run",
    doc=DOC,
    check=check,
    fixable=True,
)
