from tfscope.diagnostics import Severity
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule
from tfscope.rules.placement import misplaced_owners

DOC = """\
## What it does
Checks for optimizer instances created outside the strategy scope that are used with a
distributed model: passed to `compile` of a model built in the scope (including an optimizer
constructed inline in a `compile(...)` call outside the scope), tracked together with it, or
used in a `strategy.run` step; and optimizers built after a strategy whose scope is never
entered, unless every model of that code was built before the strategy (a strategy added to a
one-device program and left unused: this optimizer alone in its scope would train the same
models, undistributed, and the message would point at the wrong object), or none of the models
it is compiled with is trained or evaluated (see TFS001). An optimizer class of the project's
written against OptimizerV2 (`_set_hyper`, `add_slot`, or a `legacy` base: the 2.11+ and Keras 3
optimizers have none of them) makes its variables at its first step, as Keras's own OptimizerV2.

## Why is this bad?
Optimizers own variables (iterations, slot variables). Keras raises `ValueError: Optimizer
(...) passed to model.compile was created inside of a different distribution strategy scope
than the model`, and the Keras 2.11+ optimizers must be built in the scope
(keras-team/keras#17187). In a custom loop the slot variables end up on one device.

Not reported: a legacy OptimizerV2 (`keras.optimizers.legacy.*`, also when an import picks it
or `keras.optimizers.*` by TensorFlow's version, one constructed with `lr=` or `decay=`, keywords
only OptimizerV2 reads (Keras 2.11's optimizers ignore `lr` and refuse `decay` in
`_process_kwargs`; Keras 3 refuses both), or any optimizer when the version evidence says
TensorFlow before 2.11: `experimental_run_v2` in the code it runs, in any module; TensorFlow 1
APIs such as `tf.Session` or `tf.enable_eager_execution()`; a pinned `tensorflow<2.11`; a
`FROM tensorflow/tensorflow:2.4.1` image) that is only stepped inside `strategy.run`, or
compiled in the scope: it creates `iterations` and its slots at the first `apply_gradients`, in the
replica context, where `Strategy.run` has entered the scope (`call_for_each_replica` in
TensorFlow's `distribute_lib.py`). Where only that era would make the code right, the message names
the Keras version evidence the finding rests on ("Keras 3: nothing names a version ...").
Nor is Keras 2's `LossScaleOptimizer` wrapped around an optimizer outside the scope: it skips
OptimizerV2's constructor and hands `iterations`, slots, weights and checkpoint tracking to the
optimizer it wraps, and updates its two loss-scale scalars once per step in cross-replica context
("frequently the optimizer is created outside the strategy's scope",
keras/mixed_precision/loss_scale_optimizer.py); the wrapped optimizer is judged where it is made.
Its `mixed_precision.experimental` name (TensorFlow 2.1-2.8) only ever was Keras 2's, so it is
exempt also where nothing else in the file names a version (a trainer module of the project
wrapping the optimizer a script made).

## Example
```python
with strategy.scope():
    model = build_model()
optimizer = keras.optimizers.Adam(1e-3)
model.compile(optimizer=optimizer, loss="mse")
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam(1e-3)
    model.compile(optimizer=optimizer, loss="mse")
```

## Fix safety
Moves (or wraps) the creating statement into the strategy scope; safe.
"""

RULE = Rule(
    code="TFS002",
    name="optimizer-outside-scope",
    severity=Severity.WARNING,
    summary="Optimizer created outside the strategy scope but used with a distributed model",
    doc=DOC,
    check=lambda model: misplaced_owners(model, frozenset({Api.OPTIMIZER})),
    fixable=True,
)
