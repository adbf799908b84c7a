from tfscope.diagnostics import Severity
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule
from tfscope.rules.placement import misplaced_owners

DOC = """\
## What it does
Checks for `tf.Variable`, `keras.Variable` and `tf.Module` objects created outside the
strategy scope that are read, trained or updated inside a step run by `strategy.run`, or
handed to a layer or model created in the scope (Keras raises `ValueError: Variable (...) was
not created in the distribution strategy scope of (...)` at `compile`).

## Why is this bad?
A plain variable is not mirrored: each replica reads and writes the same single-device
variable, updates race, and on TPU the step fails (`` `handle` is not available outside the
replica context ``). Host-side bookkeeping (an epoch counter updated outside `strategy.run`)
is fine outside the scope and is not reported.

## Example
```python
scale = tf.Variable(1.0)
with strategy.scope():
    model = build_model()

def step(x):
    return model(x) * scale

strategy.run(step, args=(batch,))
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    scale = tf.Variable(1.0)
```

## Fix safety
Moves (or wraps) the creating statement into the strategy scope; safe.
"""

RULE = Rule(
    code="TFS004",
    name="variable-outside-scope",
    severity=Severity.WARNING,
    summary="Variable or tf.Module created outside the strategy scope but used in a distributed step or layer",
    doc=DOC,
    check=lambda model: misplaced_owners(model, frozenset({Api.VARIABLE, Api.MODULE}), frozenset({"step", "handed"})),
    fixable=True,
)
