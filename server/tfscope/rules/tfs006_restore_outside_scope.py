from tfscope.diagnostics import Severity
from tfscope.model.entities import SemanticModel
from tfscope.model.facts import OptimizerV2Era, Restore
from tfscope.resolve.catalog import Api
from tfscope.rules import Rule, Violation
from tfscope.rules.placement import misplaced_owners, place_in_scope

_WEIGHT_CARRIERS = (Api.MODEL, Api.LAYER, Api.LOADED_MODEL)

DOC = """\
## What it does
Checks for restores of distributed objects outside the strategy scope *before their
variables exist*, where the restore makes them (Keras 2's OptimizerV2, see below):
`checkpoint.restore(...)`, `manager.restore_or_initialize()` or `model.load_weights(...)` right
after construction, before any training step or `optimizer.build(...)`. Also checks for `keras.models.load_model(...)` /
`tf.saved_model.load(...)` outside the scope when the loaded model is then used with the
strategy, and for a restore into a model built outside the scope that is then built again
inside it (the distributed model starts from fresh weights), unless the new model wraps a
model or layer the restored one held (a pretrained backbone read through a temporary
classifier): its restored weights come along. The name must still hold the restored model when
the scope builds the new one: a tutorial whose next sections bind it to other models first
restored into an object nobody trains again.

## Why is this bad?
A restore creates the variables that do not exist yet. With Keras 2's OptimizerV2 (TensorFlow
before 2.11, and `keras.optimizers.legacy`) those are the optimizer's slot variables, made at the
restore: before TensorFlow 2.5 under whatever strategy is current there, from 2.5 under the
strategy the optimizer was made in (`add_slot` enters `_distribution_strategy_scope`,
`optimizer_v2.py`). Made under the default strategy for mirrored variables: `ValueError: Trying to
create optimizer slot variable under the scope for tf.distribute.Strategy (...), which is different
from the scope used for the original variable (...). ... This may happen if you're restoring from a
checkpoint outside the scope` (tf-keras `keras/distribute/checkpointing_test.py` expects it of an
optimizer made outside the scope). A TF maintainer: "load_weights should happen inside the
strategy.scope because it ends up creating optimizer variables" (tensorflow/tensorflow#32561).

The optimizers of TensorFlow 2.11+ and Keras 3 make their variables at `build`, the first
`apply_gradients`: a restore before it makes none and holds the checkpoint's values until `build`
creates them (tf-keras `optimizer.py` keeps them in the tracked `_variables` list; Keras 3's
`load_own_variables` skips an optimizer not built yet). So a restore outside the scope is reported
for an optimizer made in the scope only where the version evidence confines the code to TensorFlow
before 2.5 (a pin, a dated header, `experimental_run_v2`, TensorFlow 1 APIs), and for one made
outside every strategy where it confines it to OptimizerV2 (TensorFlow before 2.11, `lr=`, a
`keras.optimizers.legacy` optimizer): as everywhere, tfscope takes the newest TensorFlow the
evidence admits. An optimizer tfscope cannot see (`compile(wrap(Adam()))`) counts as made in the
scope when the call that returned it ran there.

Restoring into objects whose variables already exist (after `fit`, or after
`optimizer.build`) works outside the scope, as official tutorials do, and is not reported; nor is
`load_weights` of a Keras 2 HDF5 file (`.h5`, `.hdf5`): it holds layer weights only
(`hdf5_format.load_weights_from_hdf5_group`) and creates no optimizer variable. The file name
decides, also when a path is built from it (`os.path.join(folder, name)`, `tf.io.gfile.join`,
`pathlib.Path(folder) / name`, `.joinpath(name)`, `str(...)`, a helper that returns the name, a
class constant `Config.WEIGHTS_NAME`); a fallback taken only when that path is a folder
(`if tf.io.gfile.isdir(path): path = tf.train.latest_checkpoint(path)`) does not run for it.
A path tfscope cannot follow, or an empty placeholder the code replaces before loading
(`resume_ckpt = ""` then `if cfg.resume_ckpt: model.load_weights(cfg.resume_ckpt)`), is taken as
HDF5 when every weights file the module names is one.
Nor is a restore in a file that runs TensorFlow 1 building graphs (it calls TensorFlow-1-only
APIs such as `tf.Session` or `tf.set_random_seed`, and never `tf.enable_eager_execution()`):
OptimizerV2's `_create_or_restore_slot_variable` creates a slot variable at the restore only
`if ... context.executing_eagerly()`, and otherwise queues the value until the training step makes
the slot, under the strategy (tensorflow/python/keras/optimizer_v2/optimizer_v2.py, TF 1.15).
Nor is a restore into a subclassed model that has not been called or built yet (and its
optimizer, when every model compiled with it is such a one): it holds no variable, so the
restore creates nothing there; each value, and the slots for it, is restored when the variable
is created, wherever the model first runs (slot restorations wait for the original variable:
`queue_slot_variables` in tensorflow/python/checkpoint/restore.py). A model first built
outside the scope is TFS015's.

## Example
```python
# requirements.txt: tensorflow==2.4.1
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
checkpoint.restore(tf.train.latest_checkpoint(ckpt_dir))
```

## Use instead
```python
with strategy.scope():
    model = build_model()
    optimizer = keras.optimizers.Adam()
    checkpoint = tf.train.Checkpoint(model=model, optimizer=optimizer)
    checkpoint.restore(tf.train.latest_checkpoint(ckpt_dir))
```

## Fix safety
Moves (or wraps) the restoring statement into the strategy scope; safe.
"""


def check(model: SemanticModel):
    yield from misplaced_owners(model, frozenset({Api.LOADED_MODEL}))
    yield from _restores_lost_to_a_scoped_rebuild(model)
    for event in model.events_of(Restore):
        distributed = [t for t in event.targets if t.placement is not None and not t.placement.is_default]
        missing = [t for t in event.optimizer_variables_missing if t in distributed
                   and _restore_makes_slots_elsewhere(model, t)]
        if event.in_scope or not missing or model.graph_mode:
            continue
        strategy = distributed[0].placement
        # a factory's model on each of its paths reads the same: named once
        names = ", ".join(dict.fromkeys(target.describe() for target in distributed))
        yield Violation(
            node=event.node,
            message=f"{event.what} restores {names} outside the {strategy.describe()} scope before their "
            f"optimizer variables exist; restore inside `with {strategy.name_for(event.key, model.module)}.scope():`",
            related=tuple((t.site, f"{t.describe()} is created in the {strategy.describe()} scope here")
                  for t in distributed),
            explanation="The restored objects were created in the strategy scope, but no training step or "
            "`optimizer.build` has run yet, so restoring creates the optimizer slot variables now, "
            "under the default strategy instead of the distributed one.",
            intent=place_in_scope(model, event.statement, event.key, strategy),
        )


RULE = Rule(
    code="TFS006",
    name="restore-outside-scope",
    severity=Severity.WARNING,
    summary="Distributed objects restored or loaded outside the strategy scope",
    doc=DOC,
    check=check,
    fixable=True,
)


def _restore_makes_slots_elsewhere(model: SemanticModel, target) -> bool:
    """The restore makes ``target``'s missing slot variables now, under another strategy than its
    variables': OptimizerV2 (TensorFlow before 2.11, and `keras.optimizers.legacy`, TF 2.9+) makes a
    checkpoint's slots at the restore, under the strategy current there before TensorFlow 2.5 and
    from 2.5 under the one it was made in. The 2.11+ and Keras 3 optimizers make none there."""
    optimizer = target if target.kind is Api.OPTIMIZER else target.optimizer
    legacy_namespace = ".legacy." in getattr(optimizer, "label", "")
    before_2_5 = model.slots_in_current_strategy or bool(model.events_of(OptimizerV2Era))
    if not (getattr(optimizer, "optimizer_v2", False) or before_2_5 or model.legacy_optimizers):
        return False
    return (before_2_5 and not legacy_namespace) or not _optimizer_made_in_a_strategy(target)


def _optimizer_made_in_a_strategy(target) -> bool:
    """An optimizer made under a strategy (one `compile` made for a Keras 2 model counts: it
    enters the model's strategy; so does an ``UnseenOptimizer`` a call in the scope returned)."""
    optimizer = target if target.kind is Api.OPTIMIZER else target.optimizer
    if isinstance(optimizer, str):
        return True
    return getattr(optimizer, "placement", None) is not None and not optimizer.placement.is_default


def _shares_weights(restored, rebuilt) -> bool:
    """The new object wraps a model or layer the restored one held (a pretrained backbone read
    through a temporary classifier): the restored values carry over with it."""
    held = {id(owner) for owner in restored.holds() if owner.kind in _WEIGHT_CARRIERS}
    return any(id(owner) in held for owner in rebuilt.holds())


def _next_bound(model: SemanticModel, target, key, position: tuple[int, int]):
    """The next object bound to ``target``'s name after ``position`` in the same function: one made in
    between (a notebook's next demo) replaced the restored object before any scoped rebuild."""
    if not target.name:
        return None
    later = [(node.lineno, node.col_offset, index, owner) for index, (node, owner) in enumerate(model.bindings)
             if (node.lineno, node.col_offset) > position and owner is not target
             and owner.name == target.name and owner.key is key]
    return min(later, key=lambda entry: entry[:3])[3] if later else None


def _restores_lost_to_a_scoped_rebuild(model: SemanticModel):
    """`model.load_weights(...)` outside, then `model = build()` in the scope: the weights stay behind."""
    for event in model.events_of(Restore):
        if event.in_scope or not event.targets or any(
                t.placement is not None and not t.placement.is_default for t in event.targets):
            continue
        position = (event.node.lineno, event.node.col_offset)
        for target in event.targets:
            rebuilt = _next_bound(model, target, event.key, position)
            if (rebuilt is None or rebuilt.kind is not target.kind or rebuilt.placement is None
                    or rebuilt.placement.is_default or rebuilt.restored or _shares_weights(target, rebuilt)):
                continue
            strategy = rebuilt.placement
            yield Violation(
                node=event.node,
                message=f"{event.what} restores into {target.describe()} outside any scope, but `{target.name}` is "
                f"created again in the {strategy.describe()} scope later, from fresh weights; restore after "
                "creating it in the scope",
                related=((rebuilt.site, f"`{target.name}` is created again in the {strategy.describe()} scope here"),),
                explanation="The restored values live in the object built outside the scope; the distributed object that "
                "replaces it starts from its initial weights.",
            )
            break
