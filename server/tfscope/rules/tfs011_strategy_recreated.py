from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import SingleWorkerEvidence, StrategyRecreated
from tfscope.resolve.catalog import COLLECTIVE_STRATEGIES
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a `MultiWorkerMirroredStrategy` constructed again after the program rewrote
`TF_CONFIG`: in a loop whose passes set it (one pass per task of a cluster), or in a function
called again after it changed.

## Why is this bad?
A multi-worker `MultiWorkerMirroredStrategy` configures the collective ops of the TensorFlow
runtime for the cluster and task it reads, and the runtime keeps the first configuration:
`context.configure_collective_ops` raises `ValueError: Collective ops are already configured.`
when a later strategy asks for another leader or other device filters (TensorFlow's
`python/eager/context.py`, called from `CollectiveAllReduceStrategy._initialize_multi_worker`).
One process joins one cluster as one task: run each configuration in its own process.

Re-creating a strategy from the same configuration is fine: `configure_collective_ops` returns
early when nothing changed and `enable_collective_ops` updates the running server (TensorFlow's
own multi-worker test pools create a strategy per test in one process), so a sweep or a helper
called once per trial is not reported; nor is re-creating any other strategy. What breaks there
is mixing objects of one strategy object with another, which TFS008 reports. A program that
removes `TF_CONFIG` or runs in TF1 graph mode is single-worker, where TensorFlow only logs a
warning (`_initialize_local` catches the error); it is not reported.

## Example
```python
for index in range(num_workers):
    os.environ["TF_CONFIG"] = json.dumps({"cluster": cluster, "task": {"type": "worker", "index": index}})
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = build_model()
```

## Use instead
```python
# one process per task: the cluster manager (or a launcher) sets TF_CONFIG before Python starts
strategy = tf.distribute.MultiWorkerMirroredStrategy()
with strategy.scope():
    model = build_model()
```
"""


def check(model: SemanticModel):
    if model.events_of(SingleWorkerEvidence):
        return
    for event in model.events_of(StrategyRecreated):
        if event.strategy.kind not in COLLECTIVE_STRATEGIES or not event.reconfigured:
            continue
        yield Violation(
            node=event.strategy.node,
            message=f"A new `{event.strategy.kind}` is constructed {event.why} after `TF_CONFIG` changed; the "
            "runtime keeps the collective set-up of the first one and TensorFlow raises `Collective ops are already "
            "configured`: run each cluster configuration in its own process",
        )


RULE = Rule(
    code="TFS011",
    name="strategy-recreated",
    severity=Severity.WARNING,
    summary="MultiWorkerMirroredStrategy constructed again after TF_CONFIG changed",
    doc=DOC,
    check=check,
)
