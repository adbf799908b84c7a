from tfscope.diagnostics import Severity
from tfscope.model.entities import Owner, SemanticModel
from tfscope.model.facts import FirstBuild
from tfscope.model.values import ClassValue
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule, Violation
from tfscope.rules.placement import place_in_scope, put_to_work_after

DOC = """\
## What it does
Checks for a subclassed Keras model constructed inside the strategy scope but first called
(`model(x)`) or built (`model.build(shape)`) outside it, also through a method of the model's
own class (`model.build_graph(shape)` calling `self.build(...)`, `generator.sample(16)` calling
`self(...)`), in this module or another of the project: it is reported at the call of that
method, where the fix belongs. TF-Agents networks are such models:
`network.Network` is a Keras layer whose `create_variables()` makes that first call
(tensorflow/agents, tf_agents/networks/network.py); so are TensorFlow Recommenders' models
(`tfrs.Model` and its subclasses, `tfrs.experimental.models.Ranking`).

Each branch of an `if` builds the model on its own path: a first build after the scope on
either branch is reported. Building a model builds the layers it keeps (its `call` runs them),
so calling one of them on its own afterwards (`model.encoder(x)`) is no first build; nor is it
after a method the object inherits from a class tfscope cannot read (OpenNMT's
`create_variables()`), which may run the model.

## Why is this bad?
A subclassed model creates its weights lazily, on its first call or build. Constructing it in
the scope is not enough: if that first call happens outside, its weights are ordinary
single-device variables. A `Sequential` subclass whose constructor hands `super().__init__` a
layer list starting with an input (`InputLayer(...)`, a layer given `input_shape=`) is built
in the constructor, as a plain `Sequential([...])` is, and is not reported.

Only a model put to work afterwards, on a path that can follow the build, is reported (a
model trained only when `args.run == "train"` and built outside the scope only when it is
`"translate"` is not): trained (`fit`, a step that updates its weights), compiled after that
first build (Keras 2's `compile` then raises `Variable ... was
not created in the distribution strategy scope`), or handed with the strategy to a trainer
tfscope cannot see (an agent factory given `strategy=`), which trains it under that strategy. A model compiled and given its weights in the
scope and then only run for predictions (a streaming-inference script calling its own
`predict`) builds single-device weights that make inference slower, not wrong. Nor is a wrapper
whose class makes no variable of its own (no `build`, `add_weight` or layer it makes and keeps)
around models already built: its first call creates no weight.

## Example
```python
with strategy.scope():
    model = MyModel()
model.build((None, 32))
```

## Use instead
```python
with strategy.scope():
    model = MyModel()
    model.build((None, 32))
```

## Fix safety
Moves (or wraps) the first call into the strategy scope; safe.
"""


def check(model: SemanticModel):
    for event in model.events_of(FirstBuild):
        strategy = event.model.placement
        if event.under is not None or event.by_keras_loop or strategy is None or strategy.is_default:
            continue
        if not put_to_work_after(model, event.model, event) or _builds_nothing(event.model):
            continue
        yield Violation(
            node=event.node,
            message=f"{event.model.describe()} is constructed in the {strategy.describe()} scope but first "
            f"built here, outside it, so its weights are created outside; build it inside "
            f"`with {strategy.name_for(event.key, model.module)}.scope():`",
            related=((event.model.site, f"{event.model.describe()} is constructed here"),),
            intent=place_in_scope(model, event.statement, event.key, strategy),
        )


def _builds_nothing(model: Owner) -> bool:
    """A wrapper whose class makes no variable of its own and whose held models all have their
    weights already: its first call creates none."""
    cls = model.attrs.get("__class__")
    return (isinstance(cls, ClassValue) and cls.makes_no_own_variables
            and all(held.kind in (Api.MODEL, Api.LOADED_MODEL) and (held.built or not held.lazy) for held in model.holds()))


RULE = Rule(
    code="TFS015",
    name="lazy-build-outside-scope",
    severity=Severity.WARNING,
    summary="Subclassed model constructed in scope but first built outside",
    doc=DOC,
    check=check,
    fixable=True,
)
