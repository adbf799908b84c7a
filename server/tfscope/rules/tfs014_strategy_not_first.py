from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import StartupAfterOps
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for `MultiWorkerMirroredStrategy` or TPU initialisation
(`tf.config.experimental_connect_to_cluster`, `tf.tpu.experimental.initialize_tpu_system`,
`TPUStrategy`) after other TensorFlow operations have run.

## Why is this bad?
Collective ops and the TPU system are configured when the TensorFlow runtime starts:
`RuntimeError: Collective ops must be configured at program startup`. Device
configuration (`tf.config.*`), logging and seeding may come first.

## Example
```python
x = tf.random.normal((8, 4))
strategy = tf.distribute.MultiWorkerMirroredStrategy()
```

## Use instead
```python
strategy = tf.distribute.MultiWorkerMirroredStrategy()
x = tf.random.normal((8, 4))
```
"""


def check(model: SemanticModel):
    for event in model.events_of(StartupAfterOps):
        yield Violation(
            node=event.node,
            message=f"{event.what} must come before any other TensorFlow operation; move it to the start "
            "of the program",
            related=((event.first_op, "the first TensorFlow operation runs here"),),
        )


RULE = Rule(
    code="TFS014",
    name="strategy-not-first",
    severity=Severity.WARNING,
    summary="MultiWorkerMirroredStrategy or TPU initialisation after other TensorFlow ops",
    doc=DOC,
    check=check,
)
