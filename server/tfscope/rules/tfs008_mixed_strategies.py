from tfscope.diagnostics import JoinScopes, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import NestedScopes
from tfscope.model.joins import contradicts
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for the scope of one strategy entered while another strategy's scope is active, and
for objects created under one strategy and then used (compiled, combined, run) under another,
reported at that use, since the object is right for the strategy it was created under.
Two `TPUStrategy` objects on one TPU system, one of them over a subset of its cores
(`device_assignment=`, SEED RL's training strategy), share variables: TPU variables pick the
component on the replica's own device, so they are not reported. Nor are two strategies made on
paths that exclude each other (a trainer class or another picked from the configuration, each
making its own strategy in a shared base method): one run makes only one of them.

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
Where the object is created in one strategy's `with` block and used in a later block of the
other strategy in the same statement list, "Create it in the `with other.scope():` block that
uses it" moves the creating statement to the start of that block, else "Use it in the `with
strategy.scope():` block that creates it" moves the using statement to the end of the
creating block, when nothing crossed shares a name with the moved statement. Both are unsafe:
the object's variables, or the work, move to the other strategy's devices. Nested scopes of
two strategies have no automatic fix: which strategy is right is a design decision.
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
                    and not placement.shares_variables_with(meeting.strategy)
                    # made on paths that exclude each other (one trainer or another): one per run
                    and not contradicts(placement.condition, meeting.strategy.condition)):
                # reported at the use: the object is right for the strategy it was created under
                created, used = _distinct(placement, meeting.strategy)
                yield Violation(
                    node=meeting.node,
                    message=f"{owner.kind.value.capitalize()} {owner.describe()} is {meeting.reason}, but it "
                    f"is created in the scope of {created}; TensorFlow raises "
                    "`Mixing different tf.distribute.Strategy objects`",
                    related=((owner.site, f"{owner.describe()} is created in the scope of {created} here"),
                             (placement.node, f"{created} is created here"),
                             (meeting.strategy.node, f"{used} is created here")),
                    intent=JoinScopes(owner.statement, meeting.node, tuple(placement.scope_blocks),
                                      tuple(meeting.strategy.scope_blocks)),
                )
                break


def _distinct(first, second) -> tuple[str, str]:
    """How a message tells two strategies apart, also when one name held both (related locations
    say where each is constructed; a line number would be wrong in a notebook cell)."""
    a, b = first.describe(), second.describe()
    return (f"another {a}, constructed earlier", b) if a == b else (a, b)


RULE = Rule(
    code="TFS008",
    name="mixed-strategies",
    severity=Severity.ERROR,
    summary="Two different strategies mixed",
    doc=DOC,
    check=check,
    fixable=True,
)
