from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import KerasLoop
from tfscope.model.object_methods import KERAS_LOOP_METHODS
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Under Keras 2 only, checks for `fit`, `evaluate` and `predict` called inside the strategy
scope. Off by default (select `TFS010` to enable).

## Why is this bad?
It is harmless: Keras 2 models record their strategy at creation and `fit` enters it by
itself, so the call does not need the scope. Keras 3 does not, and keras.io puts `fit`
inside the scope, which is why this rule never fires under Keras 3.

## Example
```python
with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss="mse")
    model.fit(dataset, epochs=3)
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss="mse")
model.fit(dataset, epochs=3)
```

## Options
`keras-version` (`auto`, `2`, `3`).
"""


def check(model: SemanticModel):
    if model.keras_version != 2:
        return
    for event in model.events_of(KerasLoop):
        if event.scope is None or event.scope.is_default or event.method not in KERAS_LOOP_METHODS:
            continue
        yield Violation(
            node=event.node,
            message=f"`{event.method}` does not need the {event.scope.describe()} scope under Keras 2 "
            f"({model.keras_evidence or 'the keras-version setting'}): "
            f"{event.model.describe()} enters its strategy by itself",
        )


RULE = Rule(
    code="TFS010",
    name="fit-in-scope",
    severity=Severity.HINT,
    summary="fit/evaluate/predict inside the scope under Keras 2 (not needed)",
    doc=DOC,
    check=check,
    default_enabled=False,
)
