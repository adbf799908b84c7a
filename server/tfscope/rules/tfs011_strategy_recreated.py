from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import StrategyRecreated
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a strategy constructed in a loop, or in a function that the file calls more than
once.

## Why is this bad?
Each construction makes a new strategy object: objects created under the first are then
"created inside of a different distribution strategy scope" for the second
(`Mixing different tf.distribute.Strategy objects`), and `MultiWorkerMirroredStrategy`
or TPU initialisation must happen once at program start-up
(`Collective ops must be configured at program startup`).

## Example
```python
for fold in range(5):
    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = build_model()
```

## Use instead
```python
strategy = tf.distribute.MirroredStrategy()
for fold in range(5):
    with strategy.scope():
        model = build_model()
```
"""


def check(model: SemanticModel):
    for event in model.events_of(StrategyRecreated):
        yield Violation(
            node=event.strategy.node,
            message=f"A new `{event.strategy.kind}` is constructed {event.why}; create the strategy once "
            "and reuse it",
        )


RULE = Rule(
    code="TFS011",
    name="strategy-recreated",
    severity=Severity.WARNING,
    summary="Strategy constructed in a loop or in a function called more than once",
    doc=DOC,
    check=check,
)
