from tfscope.diagnostics import Severity
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule
from tfscope.rules.placement import misplaced_owners

DOC = """\
## What it does
Checks for metric instances (`keras.metrics.AUC()`, `SparseCategoricalAccuracy()`, ...)
created outside the strategy scope that are compiled with a distributed model, tracked with
it, or updated inside a `strategy.run` step of a strategy that may span TPU cores or workers;
and metrics built after a strategy whose scope is never entered, unless every model of that
code was built before the strategy (as for optimizers, TFS002), or the metric belongs only to
models (compiled with them, or a tracker their constructor keeps) that are never trained or
evaluated: a detector loaded for inference keeps its loss trackers idle.

## Why is this bad?
Metrics own state variables. Keras raises `ValueError: Metric (...) passed to model.compile
was created inside of a different distribution strategy scope than the model`; on TPU,
`Trying to run metric.update_state in replica context when the metric was not created in
TPUStrategy scope` (`update_state_wrapper` in keras/utils/metrics_utils.py, the only check of
where a metric was created). Across workers (`MultiWorkerMirroredStrategy`) each worker's plain
variables count only its own replicas, so `result()` silently reports part of the batch.
Metric strings (`metrics=["accuracy"]`) are created by Keras itself and are fine. A metric only
updated on the host (outside `strategy.run`) is fine outside, and so is one only updated in the
steps of a strategy on one machine (`MirroredStrategy`, `OneDeviceStrategy`,
`CentralStorageStrategy`): every replica adds into the same variables (`assign_add` holds the
variable's lock), so `result()` covers them all. A strategy handed in (a parameter) may be any
the module or the rest of the project constructs.

## Example
```python
auc = keras.metrics.AUC()
with strategy.scope():
    model = build_model()
    model.compile(optimizer="adam", loss="bce", metrics=[auc])
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    auc = keras.metrics.AUC()
    model.compile(optimizer="adam", loss="bce", metrics=[auc])
```

## Fix safety
Moves (or wraps) the creating statement into the strategy scope; safe.
"""

RULE = Rule(
    code="TFS003",
    name="metric-outside-scope",
    severity=Severity.WARNING,
    summary="Metric created outside the strategy scope but used with the strategy",
    doc=DOC,
    check=lambda model: misplaced_owners(model, frozenset({Api.METRIC})),
    fixable=True,
)
