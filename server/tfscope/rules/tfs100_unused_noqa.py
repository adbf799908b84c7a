from tfscope.diagnostics import Severity
from tfscope.rules import Rule

DOC = """\
## What it does
Checks for `# noqa: TFSxxx` comments that suppress nothing: the code they name is not
reported on their line (any more). Like ruff's `RUF100`, off by default: turn it on with
`extend-select = ["TFS100"]` or `--extend-select TFS100`. Codes of other tools (`E501`) and
blanket `# noqa` comments, which other tools share, are left alone.

## Why is this bad?
A stale suppression hides the next real finding on that line, and tells the reader a
placement problem exists where there is none.

## Example
```python
with strategy.scope():
    model = build_model()  # noqa: TFS001
```

## Use instead
```python
with strategy.scope():
    model = build_model()
```
"""


def check(model):
    """The engine reports these: they depend on what the other rules found, not on the model."""
    return ()


RULE = Rule(
    code="TFS100",
    name="unused-noqa",
    severity=Severity.WARNING,
    summary="`# noqa` comment naming a tfscope code that suppresses nothing",
    doc=DOC,
    check=check,
    default_enabled=False,
)
