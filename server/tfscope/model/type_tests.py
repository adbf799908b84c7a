"""What `isinstance(value, cls)` answers for the values tfscope knows, so that a test of a model's
or a strategy's class picks the branch that runs (`if isinstance(strategy, MirroredStrategy):`).

Only classes whose instances tfscope tells apart for sure are listed: every Keras model is a
`keras.Model` and a `keras.layers.Layer`; a MirroredStrategy or OneDeviceStrategy is exactly that
class (no other public strategy derives from them: `tf.distribute.MultiWorkerMirroredStrategy` is
`CollectiveAllReduceStrategy(distribute_lib.Strategy)` and the default strategy is
`_DefaultDistributionStrategy(StrategyV1)`, tensorflow/python/distribute/collective_all_reduce_strategy.py
and distribute_lib.py). Strategies with a same-named `experimental` twin (TPU, multi-worker,
parameter server, central storage) are other classes under one canonical name here, so tests of
them are not decided. No TensorFlow object is a Python `list`, `tuple`, `set` or `dict` (a
`to_list(models)` helper's test). An instance of a user's class is no Keras model, layer or
strategy when every class it derives from is known and none is TensorFlow's (the project's own
classes, `object`, `torch.nn.Module`); with any other base (one from a package tfscope does not
read) it is not decided. Nor is a TensorFlow object an instance of such a class of the project's
(a Horovod stand-in that mimics a strategy's interface), while an instance of the project's
classes is one when the class is in its known lineage.
"""

from __future__ import annotations

import ast

from tfscope.astutil import per_node, text_of
from tfscope.model.entities import Owner, Strategy
from tfscope.model.values import Alternatives, ApiRef, ClassValue, Instance, class_of
from tfscope.resolve.catalog import Api

# canonical class -> owner kinds whose instances it holds for (True) or not (False)
_OWNER_CLASSES = {
    "keras.Model": {Api.MODEL: True, Api.LAYER: False, Api.OPTIMIZER: False, Api.METRIC: False, Api.VARIABLE: False},
    "keras.models.Model": {Api.MODEL: True, Api.LAYER: False, Api.OPTIMIZER: False, Api.METRIC: False,
                           Api.VARIABLE: False},
    # a Keras 2 metric is a layer, a Keras 3 one is not: metrics stay undecided
    "keras.layers.Layer": {Api.MODEL: True, Api.LAYER: True, Api.OPTIMIZER: False, Api.VARIABLE: False},
}
# Python's containers: no TensorFlow object (model, layer, optimizer, strategy) is one.
_BUILTIN_CONTAINERS = frozenset({"builtins.list", "builtins.tuple", "builtins.set", "builtins.dict",
                                 "builtins.frozenset"})
# canonical strategy class -> the strategy kind whose instances are exactly its instances
_STRATEGY_CLASSES = {
    "tensorflow.distribute.MirroredStrategy": "MirroredStrategy",
    "tensorflow.distribute.OneDeviceStrategy": "OneDeviceStrategy",
}


def is_isinstance_call(node: ast.AST) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
            and len(node.args) == 2 and not node.keywords)


@per_node  # asked at each run of the test that holds it
def reads_only(node: ast.expr) -> bool:
    """Whether evaluating ``node`` again makes nothing: names, attributes, subscripts, and
    `get_strategy()`, which only reads the current strategy."""
    return all(not isinstance(part, ast.Call) or text_of(part.func).endswith("get_strategy")
               for part in ast.walk(node))


def options_of(value) -> list:
    """The distinct objects a value may be: each alternative, a strategy and those it stands for."""
    if isinstance(value, Alternatives):
        return list(value.options)
    if isinstance(value, Strategy):
        return [value, *value.alternatives]
    return [value]


def holds_for(option, classes: list) -> bool | None:
    """Whether `isinstance(option, classes)` holds; None when tfscope cannot tell."""
    answers = [_holds_for_one(option, cls) for cls in classes]
    if any(answer is True for answer in answers):
        return True
    return False if all(answer is False for answer in answers) else None


def class_names(node: ast.expr, evaluate, binds) -> list | None:
    """The canonical names of a class or tuple of classes (``evaluate`` gives a node's value), a
    builtin container the code does not rebind (``binds(name)``) as `builtins.list`, and a class
    of the project's that derives from no TensorFlow class as itself; None where one is unknown."""
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    names = []
    for item in items:
        value = evaluate(item)
        if isinstance(value, ApiRef):
            names.append(value.name)
        elif isinstance(value, ClassValue) and value.kind is None and value.lineage_known:
            names.append(value)  # the project's own class, deriving from no TensorFlow one
        elif (isinstance(item, ast.Name) and f"builtins.{item.id}" in _BUILTIN_CONTAINERS
              and not binds(item.id)):
            names.append(f"builtins.{item.id}")
        else:
            return None
    return names or None


def _holds_for_one(option, cls: str | ClassValue) -> bool | None:
    if isinstance(cls, ClassValue):
        return _is_instance_of_own_class(option, cls)
    if isinstance(option, Instance) and option.cls.kind is None and option.cls.lineage_known:
        # a class of the project's own (`torch.nn.Module`'s, or plain) is no Keras, strategy or container class
        return False if cls in _OWNER_CLASSES or cls in _STRATEGY_CLASSES or cls in _BUILTIN_CONTAINERS else None
    if cls in _BUILTIN_CONTAINERS:
        return False if isinstance(option, (Owner, Strategy)) else None
    if isinstance(option, Owner):
        return _OWNER_CLASSES.get(cls, {}).get(option.kind)
    if isinstance(option, Strategy) and cls in _STRATEGY_CLASSES and option.kind != "unknown":
        return option.kind == _STRATEGY_CLASSES[cls]
    return None


def _is_instance_of_own_class(option, cls: ClassValue) -> bool | None:
    """`isinstance(option, cls)` for a class of the project's deriving from no TensorFlow class (a
    Horovod stand-in mimicking a strategy): TensorFlow's own objects are no instance of it; an
    instance of the project's classes is when ``cls`` is in its known lineage."""
    own = class_of(option)
    if own is None:
        return False if isinstance(option, (Owner, Strategy)) else None
    return own.derives_from(cls)
