from tfscope.diagnostics import Severity
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule
from tfscope.rules.placement import misplaced_owners

DOC = """\
## What it does
Checks for `tf.train.Checkpoint` objects created outside the strategy scope that track
objects created inside it.

## Why is this bad?
A `Checkpoint` itself creates at most a save counter, so this is rarely fatal, but the
official custom-training tutorial creates it in the scope together with what it tracks, and
a restore through it outside the scope can create optimizer slot variables under the wrong
strategy (see TFS006). Keeping the checkpoint with the state it tracks keeps the setup in one
place.

## Example
```python
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
```

## Fix safety
Moves (or wraps) the creating statement into the strategy scope; safe.
`tf.train.CheckpointManager` is bookkeeping only and is never reported.
"""

RULE = Rule(
    code="TFS005",
    name="checkpoint-outside-scope",
    severity=Severity.INFO,
    summary="tf.train.Checkpoint created outside the scope of the objects it tracks",
    doc=DOC,
    check=lambda model: misplaced_owners(model, frozenset({Api.CHECKPOINT})),
    fixable=True,
)
