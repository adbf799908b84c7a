from tfscope.diagnostics import HoistOutOfLoop, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import SingleWorkerEvidence, StrategyRecreated
from tfscope.resolve.catalog import COLLECTIVE_STRATEGIES
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for a `MultiWorkerMirroredStrategy` constructed more than once in a program: in a
loop, or in a function the file calls more than once.

## Why is this bad?
A multi-worker `MultiWorkerMirroredStrategy` configures the collective ops of the TensorFlow
runtime when it is created, and that can happen once per program: the second one raises
`RuntimeError: Collective ops must be configured at program startup`
(`CollectiveAllReduceStrategy._initialize_multi_worker` in TensorFlow's
`python/distribute/collective_all_reduce_strategy.py`).

Re-creating other strategies is fine in itself: a function that builds a fresh
`MirroredStrategy` and everything it uses, called once per trial (the Keras guide's resume
demo, hyper-parameter sweeps, test helpers), works. What breaks there is mixing objects of
one strategy object with another, which TFS008 reports. A program that removes `TF_CONFIG`
or runs in TF1 graph mode is single-worker, where TensorFlow only logs a warning
(`_initialize_local` catches the error); it is not reported.

## Example
```python
for fold in range(5):
    strategy = tf.distribute.MultiWorkerMirroredStrategy()
    with strategy.scope():
        model = build_model()
```

## Use instead
```python
strategy = tf.distribute.MultiWorkerMirroredStrategy()
for fold in range(5):
    with strategy.scope():
        model = build_model()
```

## Fix safety
"Create the strategy once, before the loop" moves `strategy = ...` from the loop body to just
before the loop, when it reads nothing the loop changes, nothing else in the loop rebinds the
name and nothing before it in the body reads it. It is unsafe: the strategy is then created
also when the loop runs no pass, and every pass shares it. A strategy created in a function
called more than once has no automatic fix (which caller should own it is a design decision).
"""


def check(model: SemanticModel):
    if model.events_of(SingleWorkerEvidence):
        return
    for event in model.events_of(StrategyRecreated):
        if event.strategy.kind not in COLLECTIVE_STRATEGIES:
            continue
        yield Violation(
            node=event.strategy.node,
            message=f"A new `{event.strategy.kind}` is constructed {event.why}; collective ops can be "
            "configured once per program: create the strategy once and reuse it",
            intent=HoistOutOfLoop(event.strategy.node),
        )


RULE = Rule(
    code="TFS011",
    name="strategy-recreated",
    severity=Severity.WARNING,
    summary="MultiWorkerMirroredStrategy constructed in a loop or in a function called more than once",
    doc=DOC,
    check=check,
    fixable=True,
)
