import ast

from tfscope.astutil import text_of
from tfscope.diagnostics import AverageLossPerExample, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import LossCalled
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for Keras loss objects with the default reduction (`AUTO` / `SUM_OVER_BATCH_SIZE`)
called directly, outside `compile`, where a strategy is active:
- in a custom step run by `strategy.run` (Keras 2, and Keras 3.0 to 3.7 where the declared or
  installed `keras` says so);
- with Keras 2, also inside `with strategy.scope():`, and in a function nobody in the file
  calls (a library's loss helper, a model's `train_step`) when another file of the project
  that imports the module's top-level package (or the module, also as seen from its own folder)
  creates a strategy: the helper runs under it wherever its caller does. Unrelated scripts (a
  book's chapters) are no evidence; nor is a docstring example (`>>> strategy = ...`);
- with Keras 2, inside a loss or metric of the project's own that `compile` was given (a
  function, an object with `__call__`, a loss class's `call`), when `fit`, `evaluate`,
  `train_on_batch` or `test_on_batch` runs Keras's step under a strategy (or a `train_step` of
  the project's calls `self.compiled_loss(...)`): the step calls it in each replica, and
  `compile` exempts only the object it was given, not the loss objects its code calls
  (`LossesContainer._get_loss_object` wraps a function in `LossFunctionWrapper` and sets
  `_allow_sum_over_batch_size` on that wrapper; deepfakes/faceswap#1224 is this bug). A loss
  object given to `compile` as a metric is exempt too in later Keras 2 releases
  (`MetricsContainer._get_metric_object`), so tfscope leaves it alone.

A loss class of the project's own counts when its `__init__` leaves the reduction at the
default (no `reduction` passed to `super().__init__`, or a parameter defaulting to `AUTO`); the
finding is then on that line of the class, where the fix belongs; when a training script's run
calls it in a module that neither made it nor decides its reduction (a class a registry builds
from a configuration: `REGISTRY.build_loss(config)(y_true, y_pred)`), the call is reported too,
in the module that calls it, which is where Keras raises. A class that overrides
`__call__` skips Keras's check and is left alone, as is a loss handed to `compile`, and one
whose `reduction` the code assigns after construction (`loss.reduction = NONE`, or a wrapper
loss's `reduction` setter that forwards to it: the wrapper's users choose).

## Why is this bad?
Each replica sees only its part of the global batch; averaging per replica and then summing
the gradients across replicas scales the loss wrongly. Keras 2 raises `Please use
tf.keras.losses.Reduction.SUM or tf.keras.losses.Reduction.NONE for loss reduction when losses
are used with tf.distribute.Strategy outside of the built-in training loops`: `Loss.__call__`
checks `tf.distribute.has_strategy()` (true in a scope and in a replica) in
`Loss._get_reduction` (tensorflow/python/keras/losses.py, tf_keras/losses.py), and only
`compile` exempts a loss (`LossesContainer._get_loss_object` sets
`_allow_sum_over_batch_size`). Keras 3 does not raise: before 3.8 a custom step silently trains
with the wrong scale; since 3.8 `reduce_values` divides the replica's mean by the number of
replicas (`scale_loss_for_distribution`, keras-team/keras#20609), which is right when the
replicas' batches are equal, so tfscope assumes a current Keras 3 unless a `keras` 3.0-3.7 is
declared or installed.

## Example
```python
loss_object = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

def step_fn(x, y):
    loss = loss_object(y, model(x))
```

## Use instead
```python
loss_object = keras.losses.SparseCategoricalCrossentropy(
    from_logits=True, reduction="none")

def step_fn(x, y):
    per_example_loss = loss_object(y, model(x))
    loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH)
```

In a compiled function the advice is `reduction="none"` alone: Keras's step averages what the
compiled function returns over the global batch (`scale_loss_for_distribution`), so the
function should return the per-example values.

## Fix safety
"Use `reduction="none"` and `tf.nn.compute_average_loss`" sets `reduction="none"` on the
constructor and wraps each call of the loss in the distributed step in
`tf.nn.compute_average_loss(..., global_batch_size=GLOBAL_BATCH_SIZE)`. It is unsafe: the loss
value, and so the gradients, change scale. It is offered only where the global batch size has
a name the step can see (`GLOBAL_BATCH_SIZE`, `global_batch_size`, `GLOBAL_BATCH`, in the
module or a function around the call), `tensorflow` is imported, the loss is built from a
Keras class (a class of the project's own is fixed in its `__init__`, by hand), and every call
of the loss tfscope sees runs in a step the project runs with the strategy (not in a scope, where
only the reduction would need to change, nor in a compiled function, whose result Keras averages).
"""


def check(model: SemanticModel):
    seen = set()
    # one finding per loss, with the surest reason: a call in a replica, then in a scope
    for event in sorted(model.events_of(LossCalled), key=_certainty):
        if not event.default_reduction:
            continue
        if event.loss is not None and event.loss.reduction_assigned:
            continue  # the code sets it after construction (a wrapper's `reduction` setter forwards to it)
        # the module that calls it sees where it raises; the fix is in the module that decides it
        call_elsewhere = event.reduced_elsewhere and event.call not in seen
        if event.reduction_site in seen and not call_elsewhere:
            continue
        where = _where_it_raises(model, event)
        if where is None:
            continue
        message, related = where
        advice = _COMPILED_ADVICE if event.compiled_caller else _STEP_ADVICE
        if event.reduction_site not in seen:
            seen.add(event.reduction_site)
            yield Violation(
                node=event.reduction_site,
                message=f"`{event.label}`{_picked_by(event)} uses the default reduction but {message}; {advice}",
                related=related,
                intent=_average_per_example(model, event),
            )
        if call_elsewhere:
            seen.add(event.call)
            yield Violation(
                node=event.call,
                message=f"`{_callee(event.call)}` is a `{event.label}`, whose own module leaves its reduction at the "
                f"default, and {message}; {advice} where its module decides it",
                related=((event.reduction_site, "the default reduction is decided here"),),
            )


_STEP_ADVICE = "pass `reduction=\"none\"` and average with `tf.nn.compute_average_loss`"
# Keras averages what a compiled loss returns over the global batch itself
_COMPILED_ADVICE = "pass `reduction=\"none\"` and return the per-example values"


def _callee(call: ast.AST) -> str:
    return text_of(call.func if isinstance(call, ast.Call) else call)


def _certainty(event: LossCalled) -> int:
    if event.replica is not None and not event.replica.is_default:
        return 0
    return 1 if event.scope is not None else 2


def _picked_by(event: LossCalled) -> str:
    picker = event.loss.picked_by if event.loss is not None else None
    return f" (picked by `{picker}`)" if picker else ""


def _where_it_raises(model: SemanticModel, event: LossCalled):
    """Why the call meets a strategy, and where: in a replica (any Keras), in a scope (Keras 2
    raises there too), or in a function of a project that creates a strategy (Keras 2)."""
    if event.compiled_caller is not None:
        if model.keras_version != 2:
            return None  # Keras 3 checks no reduction, and Keras's step scales what the compiled loss returns
        return (f"is called by `{event.compiled_caller}`, which `compile` was given: Keras 2 runs it in each replica "
                f"of {event.replica.describe()} and exempts only it from the reduction check, so this call raises",
                ((event.call, "called here by the compiled function"),))
    if event.replica is not None and not event.replica.is_default:
        if model.keras_version != 2 and not model.unscaled_replica_losses:
            return None  # Keras 3.8 and later divide a default-reduction loss by the replicas too
        return (f"is called in a step run by {event.replica.describe()}",
                ((event.call, "called in the distributed step here"),))
    if model.keras_version != 2 or event.replica is not None:
        return None
    if event.scope is not None:
        return (f"is called inside the {event.scope.describe()} scope, where Keras 2 raises",
                ((event.call, "called here"),))
    if event.context_known:
        return None
    created = model.project_strategies()
    if not created:
        return None
    return (f"is called directly in a function that runs wherever its caller does, and this project "
            f"creates {created[0].describe()}: under it Keras 2 raises",
            ((event.call, "called here"),))


def _average_per_example(model: SemanticModel, event: LossCalled) -> AverageLossPerExample | None:
    """Where the finding is the loss's constructor (or its `reduction=`) and every call of it the model saw runs per
    replica: a call elsewhere would get per-example losses where it expects their mean."""
    keywords = getattr(event.loss_node, "keywords", ())
    if event.reduction_site is not event.loss_node and all(k.value is not event.reduction_site for k in keywords):
        return None  # a loss class of the project's own: its `__init__` decides
    calls = [other for other in model.events_of(LossCalled) if other.loss_node is event.loss_node]
    # a compiled function's result is averaged by Keras: per-example values need no global batch size
    if any(other.replica is None or other.replica.is_default or other.compiled_caller for other in calls):
        return None
    return AverageLossPerExample(event.loss_node, tuple(dict.fromkeys(other.call for other in calls)))


RULE = Rule(
    code="TFS013",
    name="loss-reduction",
    severity=Severity.WARNING,
    summary="Loss with default reduction used in a custom distributed step",
    doc=DOC,
    check=check,
    fixable=True,
)
