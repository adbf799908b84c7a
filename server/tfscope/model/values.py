"""Abstract values the interpreter tracks besides strategies and owners."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

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


@dataclass(eq=False)
class ClassValue:
    node: ast.ClassDef
    kind: object  # Api of the variable-owner family it derives from, or None
    methods: dict[str, Function] = field(default_factory=dict)
    bases: list[ClassValue] = field(default_factory=list)
    external: bool = False  # defined in another module of the project

    def method(self, name: str) -> Function | None:
        if name in self.methods:
            return self.methods[name]
        for base in self.bases:
            found = base.method(name)
            if found:
                return found
        return None


@dataclass(eq=False)
class Instance:
    """An instance of a user class that owns no variables itself (a trainer, a config)."""

    cls: ClassValue
    attrs: dict = field(default_factory=dict)


@dataclass(frozen=True)
class BoundMethod:
    receiver: object
    name: str


@dataclass(frozen=True)
class Tensor:
    """A symbolic Keras tensor: the functional layers whose calls produced it."""

    producers: tuple[Owner, ...] = ()


@dataclass(eq=False)
class Loss:
    node: ast.AST  # its constructor call
    label: str
    default_reduction: bool
    reduction_site: ast.AST | None = None  # where its reduction is decided (see ``loss_reduction``)


@dataclass(eq=False)
class Dataset:
    node: ast.AST


@dataclass(eq=False)
class CheckpointManager:
    checkpoint: Owner | None


@dataclass(frozen=True)
class Alternatives:
    """Distinct objects (variable owners, instances of the file's classes) one name may hold, each
    on its own path (see ``joins``)."""

    options: tuple


@dataclass(frozen=True)
class Sequence:
    items: tuple


def class_of(value) -> ClassValue | None:
    """The file's class of an instance, or of a variable owner made from one (a Keras subclass)."""
    if isinstance(value, Instance):
        return value.cls
    cls = value.attrs.get("__class__") if isinstance(value, Owner) else None
    return cls if isinstance(cls, ClassValue) else None
