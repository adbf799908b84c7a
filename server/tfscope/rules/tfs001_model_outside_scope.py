from tfscope.diagnostics import Severity
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule
from tfscope.rules.placement import misplaced_owners

DOC = """\
## What it does
Checks for Keras models and layers whose weights are created outside every
`strategy.scope()` although the model later meets a strategy: it is compiled or fit inside
the scope, combined with objects created in the scope (compiled with them, or wrapping
sub-models built there), kept by a model created in the scope (a built backbone or teacher
handed to a subclassed model's constructor, `self.backbone = backbone`), trained by a step that runs inside the scope or through
`strategy.run`, or handed to Hugging Face's `TFTrainer`, which trains under
`args.strategy`, or handed, built, to code tfscope cannot see together with a strategy (a
trainer class from another package cannot re-create it in its scope). Also flags models built
after a strategy whose scope is never entered at all and then trained or evaluated, unless it
spans one device (`MirroredStrategy(devices=["/gpu:0"])`, `OneDeviceStrategy`): one replica
distributes nothing; one only loaded, compiled (to export it with its loss and metrics),
exported or run for predictions is not meant to be distributed. A model built outside the scope
into the attribute that held one built in it (a `fit(build=True)` method that rebuilds
`self.model`) and then trained or evaluated takes the
distributed model's place: it is reported at the call, in the code that names the strategy,
that led to it (`net.fit(x, y)`). A subclassed model without an input
shape owns no weights until its first call, nor does a TF-Agents network until its first call
or `create_variables()` (tensorflow/agents, tf_agents/networks/network.py), nor a TensorFlow
Recommenders model (`tfrs.Model`, `tfrs.experimental.models.Ranking`: `keras.Model` subclasses,
tensorflow/recommenders): first called in a replica context or the scope,
its weights are created there and it is not reported (a model's own `model.call(x)` counts as
its first call). Keras's layers are built the same way (`Layer._maybe_build` at the first call),
and so is a layer class of the project whose constructors make no weight (no `add_weight`,
`tf.Variable` or `build` call) and keep only such layers: one made outside and first called in
`strategy.run` (a test helper running `graph_fn` on a TPU) has its weights made in the replica,
where `Strategy.run` has the scope open. Lookup, vectorization and normalization layers keep
state made at construction or by `adapt` and are judged as made. A custom layer whose code makes no variable (no `build`, no `add_weight` or
`tf.Variable`, no sublayer; Keras's `Layer` base holds none) has nothing to distribute and is
not reported either, nor is a model class whose code makes none and constructs nothing (a test's
stub feature extractor whose `call` returns `tf.ones(...)`) when it is handed nothing with
weights (`keras.Model` holds no variable of its own: Keras makes them in layers and in
`compile`'s optimizer and metrics; keras/src/trainers/trainer.py `Trainer.__init__` leaves the
loss tracker to `compile`). A model subclass that wires layers in its `__init__` and
hands `super().__init__(inputs=..., outputs=...)` the result is a functional model, whose
weights exist once it is made. Nor is a functional model (`keras.Model(inputs, outputs)`, which holds
only its layers' weights) made outside the scope from models and layers made inside it: a
distillation model whose outputs are `dict(student=student(x), teacher=teacher(x))`, a feature
extractor cut from a base (`base.input`, `base.get_layer(name).output`). Factories count, also from other modules of the project (found with jedi):
`model = build_model()` outside the scope is reported at the call, and so is a helper that
returns the Keras tensors its layers made (`encoded.append(encode_feature(inp, ds))`, lists of
tensors included: `concatenate(encoded)`). Random augmentation layers (`RandomFlip`,
`RandomRotation`, ...) keep only a random generator's state, never a weight (TF 2.3-2.6 kept a
`tf.random.Generator` out of the layer's weights, tensorflow/tensorflow#41143; Keras 2.7-2.15
keep no variable; keras.io's EfficientNet fine-tuning example builds them before its TPU/GPU
scope), so a stack of them made outside is not reported. A `Sequential` stacked outside the
scope on a backbone made inside is reported when it adds new weight-making layers of its own (the
head's `Dense`); one filled with `add` from layers tfscope cannot see (another model's `.layers`,
whose weights exist) is not. An adapted preprocessing layer
(`Normalization`, `StringLookup`) made outside and wired into a model built in the scope is
reported under Keras 2, whose `compile` checks every model variable (`_validate_compile`:
"Variable (...) was not created in the distribution strategy scope"), and under Keras 3 only
on TPU: replicas on GPUs read the one copy of its state. TF Hub `KerasLayer`s hold
their variables from construction on, so they count as soon as they are created, except TF
Hub's text preprocessing models (`.../bert_en_uncased_preprocess/3`, or a handle the code
names so, `preprocess_handle`, when its value is not known), which hold none (their model
cards: "no trainable parameters ... can be used in an input pipeline outside the training
loop").

## Why is this bad?
`strategy.scope()` is about variable creation: only variables created while the scope is
active become distributed (mirrored, TPU, parameter-server) variables. A model built outside
holds ordinary single-device variables, and the strategy cannot recreate them later. Keras 2
raises `ValueError: Variable (...) was not created in the distribution strategy scope of
(...)` at `compile`; otherwise training silently runs on one device.

## Example
```python
strategy = tf.distribute.MirroredStrategy()
model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
```

## Use instead
```python
strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])
    model.compile(optimizer="adam", loss="mse")
```

## Fix safety
"Move into `with strategy.scope():`" moves the creating statement into the existing scope
block when nothing in between depends on it; otherwise "Wrap in `with strategy.scope():`".
Both are safe: the statement runs at the same point, only under the strategy.
Models that never meet a strategy (a CPU copy for export, a smoke test) are never reported.
"""

RULE = Rule(
    code="TFS001",
    name="model-outside-scope",
    severity=Severity.WARNING,
    summary="Model or layer created outside the strategy scope but used with the strategy",
    doc=DOC,
    check=lambda model: misplaced_owners(model, frozenset({Api.MODEL, Api.LAYER})),
    fixable=True,
)
