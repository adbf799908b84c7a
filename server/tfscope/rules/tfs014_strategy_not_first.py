from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import SingleWorkerEvidence, StartupAfterOps
from tfscope.resolve.catalog import COLLECTIVE_STRATEGIES
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a `MultiWorkerMirroredStrategy` created after other TensorFlow operations have
run.

## Why is this bad?
In a multi-worker set-up (a cluster from `TF_CONFIG` or a cluster resolver) the strategy
configures the collective ops of the eager context, which the first TensorFlow operation
has already initialised: `RuntimeError: Collective ops must be configured at program
startup` (`CollectiveAllReduceStrategy._initialize_multi_worker` in TensorFlow's
`python/distribute/collective_all_reduce_strategy.py`). Device configuration (`tf.config.*`),
logging and seeding may come first.

Not reported where TensorFlow does not raise: single-worker programs (`TF_CONFIG`
removed), where `_initialize_local` catches the error and only logs "Collective ops is not
configured at program startup", and TF1 graph mode (`tf.compat.v1.disable_v2_behavior()`),
which has no eager context. TPU initialisation
(`tf.tpu.experimental.initialize_tpu_system`) is not reported either: it may follow
host-side eager work (numpy loading, `clear_session()`, `tf.data` set-up), as the official
TPU Colabs do; it wipes TPU state, not the program's.

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
    if model.events_of(SingleWorkerEvidence):
        return
    for event in model.events_of(StartupAfterOps):
        if event.kind not in COLLECTIVE_STRATEGIES:
            continue
        yield Violation(
            node=event.node,
            message=f"{event.what} must come before any other TensorFlow operation in a multi-worker "
            "set-up; move it to the start of the program",
            related=((event.first_op, "the first TensorFlow operation runs here"),),
        )


RULE = Rule(
    code="TFS014",
    name="strategy-not-first",
    severity=Severity.WARNING,
    summary="MultiWorkerMirroredStrategy created after other TensorFlow ops",
    doc=DOC,
    check=check,
)
