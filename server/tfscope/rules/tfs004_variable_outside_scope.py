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
A plain variable is not mirrored: every replica updates the same single-device variable, so
updates race, and on TPU the step fails (`` `handle` is not available outside the replica
context ``). Host-side bookkeeping is fine outside the scope and is not reported: a counter
updated outside `strategy.run`, and, on GPU strategies, a variable no optimizer trains and no
replica assigns (a learning rate, an integer step counter), which each mirrored replica reads;
and any plain variable a OneDeviceStrategy's single replica uses. Neither is a `tf.Module`
whose constructor makes no variable: it makes them when first used, under the strategy current
there (`tf.distribute.get_strategy()` inside `strategy.run`), wherever it was constructed. Nor
is one whose constructor enters a strategy's scope itself (an agent that makes its own
strategy and builds its networks in it): what it makes is judged where it makes it, so a
variable its constructor makes before that scope is reported on its own line.

## Example
```python
temperature = tf.Variable(1.0)
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
def step(x, y):
    with tf.GradientTape() as tape:
        loss = compute_loss(y, model(x) / temperature)
    variables = model.trainable_variables + [temperature]
    optimizer.apply_gradients(zip(tape.gradient(loss, variables), variables))
strategy.run(step, args=(x, y))
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
    temperature = tf.Variable(1.0)
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
