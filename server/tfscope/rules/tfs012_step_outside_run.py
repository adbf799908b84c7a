from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import StepOutsideRun
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a training step that applies gradients (`optimizer.apply_gradients`,
`optimizer.minimize`) to a distributed optimizer, or inside a strategy scope, but is called
directly instead of through `strategy.run`, and for Keras training loops (`model.fit`,
`model.train_on_batch`) passed to `strategy.run`.

## Why is this bad?
Outside `strategy.run` the code runs in cross-replica context: TensorFlow raises
`` `apply_gradients() cannot be called in cross-replica context. Use `tf.distribute.Strategy.run`
to enter replica context. `` or `` `handle` is not available outside the replica context ``.
`fit` is itself a whole distributed loop and must not run per replica.

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
"""


def check(model: SemanticModel):
    for event in model.events_of(StepOutsideRun):
        name = event.strategy.label or "strategy"
        yield Violation(
            node=event.node,
            message=f"{event.what}: run the step through `{name}.run(step_fn, args=...)`"
            if "cross-replica" in event.what else f"{event.what}; do not pass it to `{name}.run`",
        )


RULE = Rule(
    code="TFS012",
    name="step-outside-run",
    severity=Severity.ERROR,
    summary="Training step run in cross-replica context instead of through strategy.run",
    doc=DOC,
    check=check,
)
