from tfscope.diagnostics import MoveOutOfScope, Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import DataInScope
from tfscope.rules import Rule, Violation

DOC = """\
## What it does
Checks for input-pipeline work inside a strategy scope: building `tf.data` datasets, loading
data (`keras.utils.image_dataset_from_directory`, `keras.datasets.*.load_data`, `np.load`,
`pd.read_csv`, `tfds.load`) when the statement creates no variables.

## Why is this bad?
It is not an error, but the scope is not a "distributed mode" wrapper: it only decides
where variables are created. Keeping only model, optimizer and metric creation inside it
makes the code say what is distributed. (Official guides differ on dataset placement, and
some multi-worker code builds datasets in the scope on purpose, hence only a hint.)

## Example
```python
with strategy.scope():
    dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
    model = build_model()
```

## Use instead
```python
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(64)
with strategy.scope():
    model = build_model()
```

## Fix safety
"Move out of the scope" is unsafe: it changes the order of side effects.
"""


def check(model: SemanticModel):
    for event in model.events_of(DataInScope):
        if event.strategy.is_default:
            continue
        yield Violation(
            node=event.statement,
            message=f"This statement builds the input pipeline and creates no variables; it does not need the "
            f"{event.strategy.describe()} scope",
            related=((event.scope_block.items[0].context_expr, "the scope it sits in"),),
            explanation="Only variable creation depends on the strategy scope; data loading can live outside.",
            intent=MoveOutOfScope(event.statement, event.scope_block),
        )


RULE = Rule(
    code="TFS009",
    name="unnecessary-in-scope",
    severity=Severity.HINT,
    summary="Data loading or preprocessing wrapped in the strategy scope",
    doc=DOC,
    check=check,
    unnecessary=True,
    fixable=True,
)
