from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import NestedScopes
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for the scope of one strategy entered while another strategy's scope is active, and
for objects created under one strategy and then used (compiled, combined, run) under another.

## Why is this bad?
TensorFlow raises `RuntimeError: Mixing different tf.distribute.Strategy objects: X is not
Y`. Re-entering the same strategy's scope is fine, and so is
`tf.distribute.get_strategy().scope()`, which is never "a different strategy".

## Example
```python
gpu_strategy = tf.distribute.MirroredStrategy()
cpu_strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
with gpu_strategy.scope():
    with cpu_strategy.scope():
        model = build_model()
```

## Use instead
Use one strategy for everything that trains together.

## Fix safety
No automatic fix: which strategy is right is a design decision.
"""


def check(model: SemanticModel):
    for event in model.events_of(NestedScopes):
        yield Violation(
            node=event.node,
            message=f"The {event.inner.describe()} scope is entered inside the {event.outer.describe()} scope; "
            "TensorFlow raises `Mixing different tf.distribute.Strategy objects`",
            related=((event.outer.node, f"{event.outer.describe()} is created here"),
             (event.inner.node, f"{event.inner.describe()} is created here")),
        )
    for owner in model.owners:
        placement = owner.placement
        if placement is None or not placement.is_constructed:
            continue
        for meeting in owner.meetings:
            if (meeting.strategy.is_constructed and meeting.strategy is not placement
                    and not placement.shares_variables_with(meeting.strategy)):
                yield Violation(
                    node=owner.site,
                    message=f"{owner.kind.value.capitalize()} {owner.describe()} is created in the "
                    f"{placement.describe()} scope but {meeting.reason}",
                    related=((meeting.node, meeting.reason), (placement.node, f"{placement.describe()} is created here")),
                )
                break


RULE = Rule(
    code="TFS008",
    name="mixed-strategies",
    severity=Severity.ERROR,
    summary="Two different strategies mixed",
    doc=DOC,
    check=check,
)
