from tfscope.diagnostics import AverageLossPerExample, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import LossCalled
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for Keras loss objects with the default reduction (`AUTO` / `SUM_OVER_BATCH_SIZE`)
called inside a custom step run by `strategy.run`.

## Why is this bad?
Each replica sees only its part of the global batch; averaging per replica and then summing
the gradients across replicas scales the loss wrongly. Keras 2 raises `Please use
tf.keras.losses.Reduction.SUM or tf.keras.losses.Reduction.NONE for loss reduction when losses
are used with tf.distribute.Strategy outside of the built-in training loops`; Keras 3 silently
trains with the wrong scale.

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

## Fix safety
"Use `reduction="none"` and `tf.nn.compute_average_loss`" sets `reduction="none"` on the
constructor and wraps each call of the loss in the distributed step in
`tf.nn.compute_average_loss(..., global_batch_size=GLOBAL_BATCH_SIZE)`. It is unsafe: the loss
value, and so the gradients, change scale. It is offered only where the global batch size has
a name the step can see (`GLOBAL_BATCH_SIZE`, `global_batch_size`, `GLOBAL_BATCH`, in the
module or a function around the call), `tensorflow` is imported, and every call of the loss
tfscope sees runs in a step run by the strategy.
"""


def check(model: SemanticModel):
    seen = set()
    for event in model.events_of(LossCalled):
        if event.replica is None or event.replica.is_default or not event.default_reduction:
            continue
        if event.loss_node in seen:
            continue
        seen.add(event.loss_node)
        yield Violation(
            node=event.loss_node,
            message=f"`{event.label}` uses the default reduction but is called in a step run by "
            f"{event.replica.describe()}; pass `reduction=\"none\"` and average with "
            "`tf.nn.compute_average_loss`",
            related=((event.call, "called in the distributed step here"),),
            intent=_average_per_example(model, event.loss_node),
        )


def _average_per_example(model: SemanticModel, loss_node) -> AverageLossPerExample | None:
    """Only when every call of the loss the model saw runs per replica: a call elsewhere would get
    per-example losses where it expects their mean."""
    calls = [event for event in model.events_of(LossCalled) if event.loss_node is loss_node]
    if any(event.replica is None or event.replica.is_default for event in calls):
        return None
    return AverageLossPerExample(loss_node, tuple(dict.fromkeys(event.call for event in calls)))


RULE = Rule(
    code="TFS013",
    name="loss-reduction",
    severity=Severity.WARNING,
    summary="Loss with default reduction used in a custom distributed step",
    doc=DOC,
    check=check,
    fixable=True,
)
