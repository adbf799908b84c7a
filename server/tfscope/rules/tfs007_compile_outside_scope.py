from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import Compile
from tfscope.rules import Rule, Violation
from tfscope.rules.placement import place_in_scope

DOC = """\
## What it does
Checks for `model.compile(...)` outside the strategy scope of a model built inside it, when
that `compile` would create variable owners: under Keras 3, a string optimizer
(`optimizer="adam"`) is turned into an optimizer object right there. (Optimizer and metric
*constructors* written inline in such a `compile(...)` are reported at the constructor by
TFS002/TFS003.)

## Why is this bad?
Keras 3 (`import keras`, and `tf.keras` since TF 2.16) records the strategy that is current
when the optimizer is constructed; `fit` does not enter the model's scope, so training fails
with `Mixing different tf.distribute.Strategy objects`. Keras 2 (`tf_keras`,
`TF_USE_LEGACY_KERAS=1`) enters the model's strategy inside `compile` itself, so a string
optimizer outside the scope is fine there and is not reported.

## Example
```python
with strategy.scope():
    model = build_model()
model.compile(optimizer="adam", loss="mse")
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss="mse")
```

## Fix safety
Moves (or wraps) the `compile` statement into the strategy scope; safe.

## Options
`keras-version` (`auto`, `2`, `3`).
"""


def check(model: SemanticModel):
    if model.keras_version != 3:
        return
    for event in model.events_of(Compile):
        strategy = event.model.placement
        if event.under is not None or event.string_optimizer is None or strategy is None or strategy.is_default:
            continue
        yield Violation(
            node=event.node,
            message=f"`compile` of {event.model.describe()} runs outside the {strategy.describe()} scope and "
            f"creates the optimizer `\"{event.string_optimizer}\"` there (Keras 3: {model.keras_evidence or 'the keras-version setting'}); compile inside `with {strategy.name_for(event.key, model.module)}.scope():`",
            related=((event.model.site, f"{event.model.describe()} is created in the scope here"),),
            explanation="Under Keras 3 the optimizer built from a string in `compile` records the strategy current "
            "at that moment (none here), and `fit` fails with `Mixing different tf.distribute.Strategy "
            "objects`.",
            intent=place_in_scope(model, event.statement, event.key, strategy),
        )


RULE = Rule(
    code="TFS007",
    name="compile-outside-scope",
    severity=Severity.WARNING,
    summary="compile() outside the scope creates variable owners under the wrong strategy",
    doc=DOC,
    check=check,
    fixable=True,
)
