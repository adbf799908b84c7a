"""Abstract values the interpreter tracks besides strategies and owners."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from typing import NamedTuple

from tfscope.astutil import names_bound_by, per_node, text_of
from tfscope.model.entities import Owner, Strategy


@dataclass(frozen=True)
class ApiRef:
    """A TF/Keras (or other known library) module, class or function, by canonical name."""

    name: str


@dataclass(frozen=True)
class ApiResult:
    """What a TF/Keras call that tfscope does not track returns: known, and not a strategy
    (`keras.distribution.LayoutMap(...)`, `tf.name_scope(...)`, a tensor)."""

    name: str


@dataclass(frozen=True)
class ProjectRef:
    """Something imported from the user's own project: only jedi can say what it is."""

    module: str
    name: str

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.name}" if self.name else self.module


@dataclass(eq=False)
class ScopeContext:
    """The value of ``s.scope()``; ``strategy`` None for a null context."""

    strategy: Strategy | None


@dataclass(eq=False)
class ExitStackValue:
    entered: list[Strategy] = field(default_factory=list)


@dataclass(eq=False)
class Function:
    node: ast.FunctionDef | ast.AsyncFunctionDef
    closure: object = field(repr=False)  # the frame it was defined in (its globals and enclosing locals)
    is_contextmanager: bool = False
    owner_class: ClassValue | None = None
    external: bool = False  # defined in another module of the project
    defined_under: tuple = ()  # the path its definition ran on: the function exists only there


@dataclass(eq=False)
class ClassValue:
    node: ast.ClassDef
    kind: object  # Api of the variable-owner family it derives from, or None
    methods: dict[str, Function] = field(default_factory=dict)
    bases: list[ClassValue] = field(default_factory=list)
    external: bool = False  # defined in another module of the project
    data: dict = field(default_factory=dict)  # strings its body binds (`WEIGHTS = "model.h5"`), by name
    opaque_base: bool = False  # a base tfscope cannot see into (see ``Interpreter.exec_class_def``)
    attribute_bag: bool = False  # the standard library's plain holders (see ``ATTRIBUTE_BAGS``)
    library_bases_build_lazily: bool = False  # every library base is a Keras layer built at its first call

    @cached_property
    def lineage_known(self) -> bool:
        """Whether every class it derives from is known: the project's own, `object`, or another
        framework's (`torch.nn.Module`), so what it is not is known too."""
        return not self.opaque_base and all(base.lineage_known for base in self.bases)

    @cached_property
    def attributes_its_code_sets(self) -> frozenset[str] | None:
        """Every attribute name an instance can get from the code of this class and its bases: what
        their bodies bind, and what the methods that can run on the instance store on their receiver.
        A base's method that a subclass replaces and never calls (`super().__init__()`) stores
        nothing. None when that cannot be told: a base outside the project (`object` aside), a class
        decorator, `setattr`, `vars`, `__dict__`, or a `__getattr__`/`__getattribute__`/`__setattr__`."""
        lineage = self._lineage()
        if lineage is None:
            return None
        codes = [_class_code(cls.node) for cls in lineage]
        if any(code.makes_attributes_dynamically for code in codes):
            return None
        class_names = {cls.node.name for cls in lineage}
        called_past_override = {attr for code in codes for attr, receiver in code.methods_read_on_classes
                                if receiver is None or receiver in class_names}
        names = set()
        for cls, code in zip(lineage, codes):
            names.update(code.bound_in_body)
            for name, method in cls.methods.items():
                if self.method(name) is method or name in called_past_override:
                    names.update(_stored_on_receiver(method.node))
        return frozenset(names)

    def _lineage(self) -> list[ClassValue] | None:
        """This class and every base it derives from, when each is the project's own or `object`
        (a `Mock` answers every attribute)."""
        lineage, pending = [], [self]
        while pending:
            cls = pending.pop()
            own_bases = [base for base in cls.node.bases if not (isinstance(base, ast.Name) and base.id == "object")]
            if cls.opaque_base or cls.attribute_bag or cls.node.decorator_list or len(own_bases) != len(cls.bases):
                return None
            if cls not in lineage:
                lineage.append(cls)
                pending.extend(cls.bases)
        return lineage

    def derives_from(self, other: ClassValue) -> bool | None:
        """Whether ``other`` is this class or one of its bases; None when a base is not known."""
        lineage = self._lineage()
        return None if lineage is None else other in lineage

    def method(self, name: str) -> Function | None:
        if name in self.methods:
            return self.methods[name]
        for base in self.bases:
            found = base.method(name)
            if found:
                return found
        return None

    @cached_property
    def built_at_construction(self) -> bool:
        """A model class whose constructor already creates the weights (see
        ``_sequential_built_at_construction`` and ``_functional_built_at_construction``), itself or
        through a base of the project's."""
        return (_sequential_built_at_construction(self) or _functional_built_at_construction(self)
                or any(base.built_at_construction for base in self.bases))

    @cached_property
    def builds_at_first_call(self) -> bool:
        """A layer class whose weights appear at its first call or build, as Keras's own layers':
        its constructors (its own and its project bases') call no `add_weight`, `tf.Variable` or
        `build`, and every library base is such a Keras layer. What it keeps (sublayers) is judged
        as objects, by whoever made them."""
        init = self.methods.get("__init__")
        return (self.library_bases_build_lazily and (init is None or not _calls_any(init.node, _CONSTRUCTION_BUILDERS))
                and all(base.builds_at_first_call for base in self.bases))

    @cached_property
    def optimizer_v2(self) -> bool:
        """An optimizer class written against OptimizerV2 (TensorFlow before 2.11, or
        `optimizers.legacy`): its code, or a project base's, calls what only OptimizerV2 has
        (`_set_hyper`, `add_slot`, ...; the 2.11+ and Keras 3 optimizers have none), or it derives
        from a legacy optimizer."""
        return (_calls_any(self.node, _OPTIMIZER_V2_METHODS)
                or any(not _OPTIMIZER_V2_MODULES.isdisjoint(text_of(base).split(".")) for base in self.node.bases)
                or any(base.optimizer_v2 for base in self.bases))

    @cached_property
    def holds_no_variables(self) -> bool:
        """A layer class whose code never makes a variable: no `build`, no `add_weight` or
        `tf.Variable`, nothing made by a call kept on the instance (a sublayer); its bases the
        same, up to Keras's `Layer`, which holds none itself."""
        return ("build" not in self.methods and _makes_no_variable(self.node)
                and self._bases_agree(lambda base: base.holds_no_variables, "Layer"))

    @cached_property
    def makes_no_own_variables(self) -> bool:
        """A model class whose code makes no variable itself (the ``holds_no_variables`` test, up to
        Keras's `Model`): it only keeps what it is handed (a wrapper adding `test_step` or `save`)."""
        return ("build" not in self.methods and _makes_no_variable(self.node)
                and self._bases_agree(lambda base: base.makes_no_own_variables, "Model"))

    @cached_property
    def model_without_variables(self) -> bool:
        """A model class that never has a variable: the ``makes_no_own_variables`` test, and its code
        (its project bases' too) constructs nothing (no `Dense(4)(x)` in `call`, no functional graph
        handed to `super().__init__`): a test's stub returning constants, a wrapper of plain ops."""
        return (self.makes_no_own_variables and not _constructs_objects(self.node)
                and all(base.model_without_variables for base in self.bases))

    @cached_property
    def constructs_no_variables(self) -> bool:
        """A `tf.Module` class whose constructor makes no variable: it makes them when first used
        (an `apply` under `tf.init_scope()`), under the strategy current there; its bases the same."""
        init = self.methods.get("__init__")
        return ((init is None or _makes_no_variable(init.node))
                and self._bases_agree(lambda base: base.constructs_no_variables, "Module"))

    def _bases_agree(self, holds, library_base: str) -> bool:
        """Whether each base is a class of the project for which ``holds`` is true, or ``library_base``."""
        own_bases = {base.node.name: base for base in self.bases}
        for base in self.node.bases:
            name = _last_name(base)
            if not (holds(own_bases[name]) if name in own_bases else name == library_base):
                return False
        return True


class _ClassCode(NamedTuple):
    """What ``ClassValue.attributes_its_code_sets`` reads of a class's code."""

    makes_attributes_dynamically: bool
    bound_in_body: frozenset[str]
    # (attribute, the class name it is read on, or None for `super()`): `Base.__init__(self)`
    methods_read_on_classes: frozenset[tuple[str, str | None]]


@per_node
def _class_code(node: ast.ClassDef) -> _ClassCode:
    dynamic, read = False, set()
    for part in ast.walk(node):
        dynamic = dynamic or _makes_attributes_dynamically(part)
        if isinstance(part, ast.Attribute):
            receiver = part.value
            if isinstance(receiver, ast.Call) and isinstance(receiver.func, ast.Name) and receiver.func.id == "super":
                read.add((part.attr, None))
            elif isinstance(receiver, ast.Name):
                read.add((part.attr, receiver.id))
    return _ClassCode(dynamic, frozenset(_bound_in_class_body(node)), frozenset(read))


def _makes_attributes_dynamically(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id in _DYNAMIC_ATTRIBUTE_BUILTINS
    if isinstance(node, ast.Attribute):
        return node.attr == "__dict__"
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in _ATTRIBUTE_HOOKS


# What sets or answers attributes by computed names.
_DYNAMIC_ATTRIBUTE_BUILTINS = frozenset({"setattr", "vars"})
_ATTRIBUTE_HOOKS = frozenset({"__getattr__", "__getattribute__", "__setattr__"})


def _bound_in_class_body(node: ast.ClassDef):
    """The names a class body binds: its class attributes, methods and nested classes."""
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield statement.name
        else:
            yield from names_bound_by(statement)


@per_node
def _stored_on_receiver(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The attributes a method stores on its first parameter (`self.x = ...`, `for self.i in ...`),
    nested functions' stores included."""
    parameters = node.args.posonlyargs + node.args.args
    if not parameters:
        return frozenset()
    receiver = parameters[0].arg
    return frozenset(part.attr for part in ast.walk(node)
                     if isinstance(part, ast.Attribute) and isinstance(part.ctx, ast.Store)
                     and isinstance(part.value, ast.Name) and part.value.id == receiver)


def _sequential_built_at_construction(cls: ClassValue) -> bool:
    """`class G(keras.Sequential)` whose `__init__` hands `super().__init__` a layer list that
    starts with an input (`InputLayer(...)`, `Input(...)`, a layer given `input_shape=`): Keras
    builds it in the constructor, as it does a plain `Sequential([...])`."""
    for call in _base_init_calls(cls, "Sequential"):
        layers = call.args[-1] if call.args else next(
            (keyword.value for keyword in call.keywords if keyword.arg == "layers"), None)
        if isinstance(layers, ast.List) and layers.elts and _is_input(layers.elts[0]):
            return True
    return False


def _functional_built_at_construction(cls: ClassValue) -> bool:
    """`class Extractor(keras.Model)` whose `__init__` wires a graph of layers and hands its inputs
    and outputs to `super().__init__(inputs=..., outputs=...)`: a functional model, whose layers
    made their weights in the constructor."""
    for call in _base_init_calls(cls, "Model"):
        explicit_self = not isinstance(call.func.value, ast.Call)  # `keras.Model.__init__(self, ...)`, not `super()`
        if len(call.args) - explicit_self >= 2 or {"inputs", "outputs"} <= {keyword.arg for keyword in call.keywords}:
            return True
    return False


def _base_init_calls(cls: ClassValue, base_name: str):
    """The `....__init__(...)` calls in the constructor of ``cls`` when it derives from a class
    named ``base_name`` (`keras.Sequential`, `tf.keras.Model`)."""
    init = cls.methods.get("__init__")
    if init is None or not any(_last_name(base) == base_name for base in cls.node.bases):
        return
    for node in ast.walk(init.node):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "__init__":
            yield node


def _last_name(node: ast.AST) -> str:
    """`Dense` for `tf.keras.layers.Dense`."""
    return text_of(node).rsplit(".", 1)[-1]


def _is_input(layer: ast.expr) -> bool:
    return isinstance(layer, ast.Call) and (
        _last_name(layer.func) in _INPUT_LAYERS
        or any(keyword.arg in _INPUT_SHAPE_KEYWORDS for keyword in layer.keywords))


# What makes a layer list start with a known input shape.
_INPUT_LAYERS = frozenset({"InputLayer", "Input"})
_INPUT_SHAPE_KEYWORDS = frozenset({"input_shape", "input_dim", "batch_input_shape", "batch_shape"})


def _makes_no_variable(code: ast.AST) -> bool:
    """No `add_weight` or `tf.Variable` in ``code``, and nothing a call made kept on the instance."""
    return not _calls_any(code, _VARIABLE_MAKERS) and not any(
        isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None and _keeps_a_made_object(node)
        for node in ast.walk(code))


def _keeps_a_made_object(assignment: ast.Assign | ast.AnnAssign) -> bool:
    """`self.dense = Dense(4)`: an attribute given what a call made (plain builtins aside)."""
    targets = assignment.targets if isinstance(assignment, ast.Assign) else [assignment.target]
    return any(isinstance(target, ast.Attribute) for target in targets) and any(
        isinstance(call, ast.Call) and text_of(call.func) not in _PLAIN_BUILTINS for call in ast.walk(assignment.value))


# What a layer or module class's code calls to make variables.
_VARIABLE_MAKERS = frozenset({"add_weight", "add_variable", "Variable"})
# What only OptimizerV2 has: a subclass calling them runs on no other optimizer.
_OPTIMIZER_V2_METHODS = frozenset({"_set_hyper", "_get_hyper", "add_slot", "get_slot", "_serialize_hyperparameter"})
# Where OptimizerV2 lives (`tf.keras.optimizers.legacy.Optimizer`, `optimizer_v2.OptimizerV2`).
_OPTIMIZER_V2_MODULES = frozenset({"legacy", "optimizer_v2", "OptimizerV2"})
# What a layer's constructor calls to have its weights at once.
_CONSTRUCTION_BUILDERS = _VARIABLE_MAKERS | {"build"}
# Calls whose result kept on `self` is plain data, never a layer.
_PLAIN_BUILTINS = frozenset({"int", "float", "bool", "str", "tuple", "list", "dict", "set", "len", "range",
                             "min", "max", "abs", "round", "sorted", "isinstance", "getattr"})


def _constructs_objects(code: ast.AST) -> bool:
    """Whether ``code`` calls a class, by Python's naming convention (`Dense(4)`, `layers.Conv2D(8, 3)`,
    `keras.Input(...)`): any call of a CapWords name but an exception raised."""
    pending = [code]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Raise):
            continue
        if isinstance(node, ast.Call) and _last_name(node.func)[:1].isupper():
            return True
        pending.extend(ast.iter_child_nodes(node))
    return False


def _calls_any(code: ast.AST, names: frozenset) -> bool:
    return any(isinstance(node, ast.Call) and _last_name(node.func) in names for node in ast.walk(code))


class Omitted(ast.Constant):
    """`None` bound to a parameter the call left out: known absent on this path, unlike a `None`
    placeholder written in the code (`self.strategy = None`, set from outside later)."""

    def __init__(self) -> None:
        super().__init__(value=None)


# What runs before a class's other methods, in this order.
SET_UP_METHODS = ("__init__", "setUpClass", "setUp")

# The standard library's plain attribute holders: what the code sets on one is all it holds, so a
# literal it sets decides the tests of it (`param = Mock(); param.eager = True`, `SimpleNamespace(tpu=False)`)
ATTRIBUTE_BAGS = frozenset({"unittest.mock.Mock", "unittest.mock.MagicMock", "unittest.mock.NonCallableMock",
                            "types.SimpleNamespace", "argparse.Namespace"})
_ATTRIBUTE_BAG_CLASSES: dict[str, ClassValue] = {}


def attribute_bag(name: str, attrs: dict) -> Instance:
    """An instance of the attribute holder ``name`` (one of ``ATTRIBUTE_BAGS``) made with ``attrs``."""
    cls = _ATTRIBUTE_BAG_CLASSES.get(name)
    if cls is None:
        node = ast.ClassDef(name=name.rsplit(".", 1)[-1], bases=[], keywords=[], body=[], decorator_list=[],
                            lineno=0, col_offset=0)
        cls = _ATTRIBUTE_BAG_CLASSES[name] = ClassValue(node, None, attribute_bag=True)
    return Instance(cls, dict(attrs), flags={key for key, value in attrs.items() if isinstance(value, ast.Constant)})


@dataclass(eq=False)
class Instance:
    """An instance of a user class that owns no variables itself (a trainer, a config)."""

    cls: ClassValue
    attrs: dict = field(default_factory=dict)
    condition: tuple = ()  # the path conditions under which it is created (see ``joins``)
    # attributes a method that ran, not a set-up one, set to a literal (`self.compiled = True`):
    # state on this path, which decides tests of it (a default set in `__init__` may be a toggle)
    flags: set = field(default_factory=set)


@dataclass(frozen=True)
class BoundMethod:
    receiver: object
    name: str


@dataclass(frozen=True)
class Tensor:
    """A symbolic Keras tensor: the functional layers whose calls produced it."""

    producers: tuple[Owner, ...] = ()


def holds_keras_tensor(value) -> bool:
    """A Keras tensor, or a list of them (`concatenate([a, b])`, `Concatenate()(encoded)`)."""
    return isinstance(value, Tensor) or (isinstance(value, Sequence) and any(map(holds_keras_tensor, value.items)))


def tensor_producers(values) -> tuple[Owner, ...]:
    """The layers whose calls produced the Keras tensors among ``values``, lists of them included."""
    found: list[Owner] = []
    for value in values:
        if isinstance(value, Tensor):
            found.extend(value.producers)
        elif isinstance(value, Sequence):
            found.extend(tensor_producers(value.items))
    return tuple(dict.fromkeys(found))


@dataclass(eq=False)
class Loss:
    node: ast.AST  # its constructor call
    label: str
    default_reduction: bool
    reduction_site: ast.AST | None = None  # where its reduction is decided (see ``loss_reduction``)
    condition: tuple = ()  # the path conditions under which it is created (see ``joins``)
    # the code assigns its `reduction` (`fn.reduction = NONE`, a wrapper's setter forwarding to it)
    reduction_assigned: bool = False
    # the path conditions under which compile's loss container wrapped it (built at its first call),
    # which exempts it from Keras 2's check from then on; None while it is not wrapped
    wrapped_by_compile: tuple | None = None
    picked_by: str | None = None  # the code that picks the class when it does not name it (`LOSSES[name]`)
    cls: ClassValue | None = None  # the project's own loss class it is an instance of
    attrs: dict = field(default_factory=dict)  # what its `__init__` kept (`self.bce = BinaryCrossentropy()`)
    # constructed by this file's own code, not by another module's that it runs: its finding is this file's
    sited_here: bool = True
    reduction_module: ast.AST | None = None  # the module whose code holds ``reduction_site``
    made_in: ast.AST | None = None  # the module whose code constructed it


@dataclass(eq=False)
class MadeInScope:
    """What a call tfscope cannot see returns inside a strategy scope (a fixture's `get_model()`, a
    third-party constructor): a Keras model made in that scope as soon as the code compiles it."""

    owner: Owner  # registered with the model only once it is compiled
    adopted: bool = False


@dataclass(eq=False)
class UnseenOptimizer:
    """What compile was given when tfscope cannot see the optimizer (built by code it cannot read):
    one exists, made under ``placement`` when the call that made it ran in a strategy's scope."""

    placement: Strategy | None


def is_text(value) -> bool:
    """A string the code spells, or the part of it that decides its ending (`"fold_%d.h5" % k`,
    `os.path.join(folder, name)`: see ``Expressions.eval_bin_op``)."""
    return isinstance(value, ast.Constant) and isinstance(value.value, str)


def is_unknown(value) -> bool:
    """Nothing tfscope can tell about: no value, or what an unseen call made in a scope (until the
    code compiles it)."""
    return value is None or isinstance(value, MadeInScope)


@dataclass(eq=False)
class Dataset:
    node: ast.AST


@dataclass(eq=False)
class CheckpointManager:
    checkpoint: Owner | None


@dataclass(frozen=True)
class Alternatives:
    """Distinct objects (variable owners, instances of the file's classes, functions) one name may
    hold, each on its own path (see ``joins``)."""

    options: tuple
    # for each option, the path it was bound on where the option cannot carry one (a function)
    paths: tuple = ()

    def path_of(self, index: int) -> tuple:
        option = self.options[index]
        return getattr(option, "condition", None) or (self.paths[index] if self.paths else ())


@dataclass(frozen=True)
class Sequence:
    items: tuple
    # a dict's key for each item, where the code spells it (see ``key_pattern``); None where
    # unknown; empty for a list
    keys: tuple = ()
    positional: bool = False  # each item at its index: a list or tuple literal, never grown nor joined

    def key_of(self, index: int):
        return self.keys[index] if index < len(self.keys) else None

    def items_at(self, subscript: ast.expr, value=None) -> list:
        """The items `container[subscript]` may read: the one at a literal index of a positional
        sequence, else those ``items_under`` its key (``value``: what the subscript evaluated to)."""
        if (self.positional and isinstance(subscript, ast.Constant) and type(subscript.value) is int
                and -len(self.items) <= subscript.value < len(self.items)):
            return [self.items[subscript.value]]
        return self.items_under(subscript_key(subscript, value))

    def items_under(self, key) -> list:
        """The items a subscript with ``key`` (None: unknown) may read."""
        return [item for index, item in enumerate(self.items)
                if key is None or self.key_of(index) is None or keys_may_match(self.key_of(index), key)]


def keys_may_match(first: tuple[str, str, bool], second: tuple[str, str, bool]) -> bool:
    """Whether two keys as spelled (see ``key_pattern``) may be the same string."""
    if first[2] and second[2]:
        return first[0] == second[0]
    if second[2]:
        first, second = second, first
    if first[2]:  # an exact key against a pattern
        text, (start, end) = first[0], second[:2]
        return len(text) >= len(start) + len(end) and text.startswith(start) and text.endswith(end)
    (start, end), (other_start, other_end) = first[:2], second[:2]
    return ((start.startswith(other_start) or other_start.startswith(start))
            and (end.endswith(other_end) or other_end.endswith(end)))


def subscript_key(node: ast.AST, value) -> tuple[str, str, bool] | None:
    """The key a subscript spells (see ``key_pattern``), or for a tuple (`self._dict[(category,
    name)]`) the texts its leading items hold, joined: a registry keeps each category apart."""
    if not isinstance(node, ast.Tuple) or not isinstance(value, Sequence):
        return key_pattern(node)
    texts = []
    for item in value.items:
        if not is_text(item):
            break
        texts.append(item.value)
    if not texts:
        return None
    joined = _KEY_SEPARATOR.join(texts) + _KEY_SEPARATOR
    return (joined, joined, True) if len(texts) == len(value.items) else (joined, "", False)


_KEY_SEPARATOR = "\x1f"  # no text a program spells: a tuple's items stay apart


def key_pattern(node: ast.AST | None) -> tuple[str, str, bool] | None:
    """A dict key as the code spells it: (text, text, True) for `"loss"`; the literal start and end
    of a `"ood/{}".format(x)` or an f-string (`f"{split}/ms_per_example"`), not exact; None when
    nothing of it is literal."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, node.value, True
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
        template = node.func.value.value
        start, end = template.split("{", 1)[0], template.rsplit("}", 1)[-1] if "}" in template else ""
    elif isinstance(node, ast.JoinedStr) and node.values:
        first, last = node.values[0], node.values[-1]
        start = str(first.value) if isinstance(first, ast.Constant) else ""
        end = str(last.value) if isinstance(last, ast.Constant) and len(node.values) > 1 else ""
    else:
        return None
    return (start, end, False) if start or end else None


def class_of(value) -> ClassValue | None:
    """The file's class of an instance, or of a variable owner made from one (a Keras subclass)."""
    if isinstance(value, (Instance, Loss)):
        return value.cls
    cls = value.attrs.get("__class__") if isinstance(value, Owner) else None
    return cls if isinstance(cls, ClassValue) else None
