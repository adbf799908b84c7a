"""Restores: `checkpoint.restore`, `load_weights`, `restore_or_initialize`, and which optimizer
variables did not exist yet where they ran."""

from __future__ import annotations

import ast

from tfscope.astutil import per_node
from tfscope.model.entities import Owner
from tfscope.model.facts import Restore
from tfscope.model.values import is_text
from tfscope.resolve.catalog import Api

# Names of weights files that restore more than layer weights (Keras 3, TF checkpoints); a
# literal "tf" is `save_format="tf"`.
_OTHER_WEIGHTS_FORMATS = (".weights.h5", ".keras", ".ckpt", ".index")


class Restores:

    def owner_load_weights(self, model: Owner, method: str, node, args, kwargs) -> None:
        path = args[0] if args else kwargs.get("filepath")
        if is_text(path) and not path.value:
            path = None  # an empty placeholder (`resume_ckpt = ""`): the code loads only once it is replaced
        if _is_weights_only_file(path) or (path is None and self.names_only_hdf5_weights()):
            model.restored = True  # layer weights only: no optimizer variable is created
        else:
            self.restore([model], node, "`load_weights`")
        self.note_build(model, node, under_recorded_strategy=True)

    def names_only_hdf5_weights(self) -> bool:
        """Whether every weights file the module names is a Keras 2 HDF5 one (`ModelCheckpoint(
        "weights_{epoch:03d}.hdf5")`): a path tfscope cannot follow (the newest file of a folder) is
        one too; a TF checkpoint lookup (`tf.train.latest_checkpoint`) is not unknown."""
        return _names_only_hdf5_weights(self.tree)

    def owner_restore(self, checkpoint: Owner, method: str, node, args, kwargs) -> None:
        if checkpoint.kind is Api.CHECKPOINT:
            self.restore(checkpoint.tracked, node, f"`{method}`")

    def restore(self, targets: list[Owner], node: ast.AST, what: str) -> None:
        for target in targets:
            target.restored = True
        missing = tuple(
            t for t in targets if (t.kind is Api.OPTIMIZER and not t.trained
                                   and not self.trains_only_unbuilt_models(t))
            or (t.kind in (Api.MODEL, Api.LOADED_MODEL) and t.optimizer is not None and not t.trained
                and not _unbuilt(t) and (not isinstance(t.optimizer, Owner) or not t.optimizer.trained))
        )
        self.report(Restore(node, self.statement, self.frame.key, what, tuple(targets),
                            self.current() is not None or self.replica is not None, missing))


    def trains_only_unbuilt_models(self, optimizer: Owner) -> bool:
        """Every model compiled with ``optimizer`` has no variable yet: it has no slot to make."""
        users = [owner for owner in self.model.owners if owner.optimizer is optimizer]
        return bool(users) and all(_unbuilt(user) for user in users)


@per_node
def _names_only_hdf5_weights(tree: ast.Module) -> bool:
    names = [node.value for node in ast.walk(tree) if isinstance(node, ast.Constant) and isinstance(node.value, str)]
    return (any(_is_weights_only_file(ast.Constant(name)) for name in names)
            and not any(name.endswith(_OTHER_WEIGHTS_FORMATS) or name == "tf" for name in names))


def _unbuilt(model: Owner) -> bool:
    """A subclassed model not called or built yet holds no variable: a restore into it creates
    nothing now; each value (and its optimizer slots) is restored when its variable is created,
    wherever the model first runs (tensorflow/python/checkpoint/restore.py, `queue_slot_variables`:
    slot restorations wait for the original variable)."""
    return model.lazy and not model.built


def _is_weights_only_file(path) -> bool:
    """A Keras 2 HDF5 weights file (`.h5`, `.hdf5`) holds layer weights only: loading it creates no
    optimizer variable (`hdf5_format.load_weights_from_hdf5_group`). Keras 3 `.weights.h5` files
    and TF checkpoints also restore optimizer state."""
    text = path.value if is_text(path) else ""
    return text.endswith((".h5", ".hdf5")) and not text.endswith(".weights.h5")
