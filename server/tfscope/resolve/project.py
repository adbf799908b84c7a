"""What the file alone cannot tell: factories and classes defined in other modules of the
user's project, found with jedi and read (parsed, never imported).

jedi is slow (tens to hundreds of milliseconds), so it never runs on the analysis path:
``lookup`` answers from the cache only and notes what it could not answer; ``resolve_pending``
(a background job in the server, a first pass in the CLI) asks jedi for those, within a time
budget, and the caller re-analyses when it returns True.
"""

from __future__ import annotations

import ast
import functools
import logging
import os
import sys
import sysconfig
import threading
import time
from typing import NamedTuple

from tfscope.astutil import assigned_name, names_bound_by, per_node
from tfscope.collector import collector_paused
from tfscope.resolve.keras_version import uses_tensorflow_1_apis
from tfscope.resolve.own_packages import library_named_package_parents, package_parent
from tfscope.stamps import modified

log = logging.getLogger(__name__)

DEFAULT_BUDGET_SECONDS = 3.0
# the standard library defines no models or strategies: never worth a jedi look-up
_STDLIB = frozenset(getattr(sys, "stdlib_module_names", ())) | {"__future__"}
_INSTALLED_CODE = frozenset({"site-packages", "dist-packages"})  # folders pip and distributions install into
_UNRESOLVED = object()
_LATE = object()  # not asked: the time budget ran out first
_PARSO_CACHE_BOUND = 500  # modules; parso starts evicting at 600 (see _bound_parso_cache)


class Definition(NamedTuple):
    path: str
    line: int  # 1-based line of the `def`/`class` name, or of the assignment


class ProjectResolver:
    def __init__(self, root: str | None = None, interpreter: str | None = None,
                 budget_seconds: float = DEFAULT_BUDGET_SECONDS) -> None:
        self.root = root
        self.interpreter = interpreter
        self.budget_seconds = budget_seconds
        self._definitions: dict[tuple[str, str, str], Definition | object] = {}
        # the defining file's mtime when each Definition was found: an edit there may move it
        self._found_in_version: dict[tuple[str, str, str], int | None] = {}
        self._pending: dict[tuple[str, str, str], None] = {}
        self._modules: dict[str, tuple[float, ast.Module | None, bool]] = {}  # mtime, tree, TF1 APIs
        self._definitions_by_tree: dict[tuple[int, int], dict[int, object]] = {}
        self._interpreting: set[tuple[int, int]] = set()  # definitions being built (import cycles)
        self._lock = threading.Lock()
        self._projects: dict[str, object] = {}  # the importer's folder -> its jedi project
        self._not_direct: set[tuple[str, str, str]] = set()  # keys only jedi can answer
        # see ``reexported_library``: (what it found, the (path, mtime) of each module it read)
        self._reexports: dict[tuple[str, str, str], tuple[str | None, tuple[tuple[str, int | None], ...]]] = {}

    # --- the analysis path: cache only -------------------------------------------------

    def lookup(self, importer: str | None, module: str, name: str) -> tuple[Definition, ast.Module] | None:
        """The definition behind ``from <module> import <name>`` (or ``import <module>`` then
        ``<name>``) as seen from ``importer``, if jedi already found it; never blocks."""
        if not consults_project(importer, module):
            return None
        key = (os.path.dirname(os.path.abspath(importer)), module, name)
        with self._lock:
            definition = self._definitions.get(key)
            if isinstance(definition, Definition) and modified(definition.path) != self._found_in_version.get(key):
                # the defining file changed since: the name may have moved or gone, so look again
                del self._definitions[key]
                definition = None
                self._not_direct.discard(key)
            asked_directly = key in self._not_direct
        if definition is None and not asked_directly:
            definition = self._defined_directly(*key)
            if definition is None and self._beyond_reach(key[0], module):
                definition = _UNRESOLVED  # a library's, or nothing: jedi's answer too, without asking
        with self._lock:
            if definition is None:
                self._not_direct.add(key)
                self._pending[key] = None
                return None
            self._remember(key, definition)
        if definition is _UNRESOLVED:
            return None
        tree = self._module_tree(definition.path)
        return (definition, tree) if tree is not None else None

    def _remember(self, key: tuple[str, str, str], definition: Definition | object) -> None:
        """Keep what a look-up found (under the lock; the first answer wins a race)."""
        if key not in self._definitions:
            self._definitions[key] = definition
            if isinstance(definition, Definition):
                self._found_in_version[key] = modified(definition.path)

    def definitions(self, tree: ast.Module, keras_version: int, interpret) -> dict[int, object]:
        """The module's functions and classes by `def` line, interpreted (by ``interpret()``, the
        semantic model's job, which also says whether every import it needed was answered) once
        per version of the file and Keras version."""
        key = (id(tree), keras_version)
        found = self._definitions_by_tree.get(key)
        if found is None:
            if key in self._interpreting:  # modules that import each other: the inner one sees nothing
                return {}
            self._interpreting.add(key)
            try:
                found, complete = interpret()
            finally:
                self._interpreting.discard(key)
            if complete:  # definitions built while jedi still owed an answer are built again
                self._definitions_by_tree[key] = found
        return found

    def _defined_directly(self, folder: str, module: str, name: str) -> Definition | object | None:
        """The `def`/`class` of ``name`` at the top of the project's module file ``module`` names,
        found where jedi would look first (the importer's folder, the folders packages named like a
        library import themselves from, the folder above the importer's own package when the import
        names it, the root; a relative import from the importer's package):
        most imports of a project's own code need no jedi. A dotted ``name`` whose head is a
        submodule the package does not bind itself (`from pkg import models`, then
        `models.build`) is read in that submodule; the submodule alone is no definition
        (``_UNRESOLVED``, as jedi's answer would be). Anything else (a re-export, a name bound
        twice, a module tfscope does not find) is jedi's to answer."""
        names = name.split(".")
        path = self._module_path(folder, module) if all(part.isidentifier() for part in names) else None
        return self._defined_in(path, names) if path is not None else None

    def module_path(self, importer: str | None, module: str) -> str | None:
        """The project's file that `import <module>` in ``importer`` runs, where Python would find it."""
        if not consults_project(importer, module):
            return None
        return self._module_path(os.path.dirname(os.path.abspath(importer)), module)

    def _module_path(self, folder: str, module: str) -> str | None:
        """The project's file for ``module`` as imported from ``folder``, where Python would find it."""
        level = len(module) - len(module.lstrip("."))
        parts = module.lstrip(".").split(".") if module.lstrip(".") else []
        if not parts or not all(part.isidentifier() for part in parts):
            return None
        return next((path for base in self._bases(folder, level, parts[0])
                     if (path := _module_file(os.path.join(base, *parts))) is not None), None)

    def _bases(self, folder: str, level: int, top: str) -> list[str]:
        """The folders an import of the package or module ``top`` from ``folder`` searches, in order."""
        if level:
            return [os.path.normpath(os.path.join(folder, *[os.pardir] * (level - 1)))]
        return [base for base in dict.fromkeys([folder, *library_named_package_parents(folder),
                                                package_parent(folder, top), self.root or os.getcwd()])
                if base is not None]

    def _beyond_reach(self, folder: str, module: str) -> bool:
        """Whether jedi could find ``module`` only in installed code or nowhere, so its answer is no
        definition: no folder the import searches in the project has the top-level package or
        module, and jedi would use this interpreter, whose path adds no folder that has it."""
        top = module.split(".")[0]
        if module.startswith(".") or not top.isidentifier() or not _jedi_uses_this_interpreter(self.interpreter):
            return False
        return not any(os.path.isfile(os.path.join(base, top + ".py")) or os.path.isdir(os.path.join(base, top))
                       for base in [*self._bases(folder, 0, top), *_added_paths()])

    def reexported_library(self, importer: str | None, module: str, name: str) -> str | None:
        """What a project module imports from a library under ``name`` at its top level and so hands
        on (a backend shim's `import tensorflow.keras as keras`, `from keras import layers as L`): its
        dotted name, when every top-level binding of ``name`` there imports it from outside the
        project (the first in the file when branches pick between two), following the project's own
        re-exports. Read from the files, never imported; None when anything else binds ``name``."""
        if not consults_project(importer, module):
            return None
        key = (os.path.dirname(os.path.abspath(importer)), module, name)
        with self._lock:
            cached = self._reexports.get(key)
        if cached is not None and all(modified(path) == mtime for path, mtime in cached[1]):
            return cached[0]
        read: list[str] = []
        found = self._reexported(*key, depth=0, read=read)
        with self._lock:
            self._reexports[key] = (found, tuple((path, modified(path)) for path in read))
        return found

    def _reexported(self, folder: str, module: str, name: str, depth: int, read: list[str]) -> str | None:
        if depth > _REEXPORT_DEPTH:
            return None
        path = self._module_path(folder, module)
        if path is not None:
            read.append(path)
        tree = self._module_tree(path) if path is not None else None
        if tree is None:
            return None
        targets = _import_targets(tree, name)
        if not targets:
            return None
        level, target = targets[0]
        head, _, last = target.rpartition(".")
        own = self._module_path(os.path.dirname(path), "." * level + head) if head else None
        if own is not None:  # the project's own module: what it binds there
            return self._reexported(os.path.dirname(path), "." * level + head, last, depth + 1, read)
        if level or self._module_path(os.path.dirname(path), target) is not None:
            return None  # the project's own module itself, not a library's
        return target

    def _defined_in(self, path: str, names: list[str]) -> Definition | object | None:
        """``names[0]`` of the module at ``path``, then each later name inside what it found."""
        tree = self._module_tree(path)
        if tree is None:
            return None
        head, rest = names[0], names[1:]
        if not rest:
            found = _top_level_definition(path, tree, head)
            if found is not None:
                return found
        if os.path.basename(path) != "__init__.py" or _binds_at_top(tree, head):
            return None
        submodule = _module_file(os.path.join(os.path.dirname(path), head))
        if submodule is None:
            return None
        return self._defined_in(submodule, rest) if rest else _UNRESOLVED

    @property
    def has_pending(self) -> bool:
        with self._lock:
            return bool(self._pending)

    # --- off the analysis path: jedi -----------------------------------------------------

    def resolve_pending(self) -> bool:
        """Ask jedi for every noted miss, within the time budget; True if anything new was found."""
        with self._lock:
            keys = list(self._pending)
            self._pending.clear()
        deadline = time.monotonic() + self.budget_seconds
        by_folder: dict[str, list[tuple[str, str, str]]] = {}
        for key in keys:
            by_folder.setdefault(key[0], []).append(key)
        found = False
        for folder, folder_keys in by_folder.items():
            # paused as the analysis is, and paused again after: parso's cache loader enables the collector
            with collector_paused():
                answers = self._ask_jedi(folder, folder_keys, deadline)
            for key, definition in zip(folder_keys, answers):
                with self._lock:
                    if definition is _LATE:
                        self._pending.setdefault(key, None)  # try again next time
                    else:
                        self._definitions.pop(key, None)
                        self._remember(key, definition or _UNRESOLVED)
                found = found or isinstance(definition, Definition)
        return found

    def _ask_jedi(self, folder: str, keys: list[tuple[str, str, str]], deadline: float) -> list:
        """A Definition, None or _LATE (past ``deadline``) for each key: one script probes them all,
        so jedi reads each module once for the folder (a script per probe read them again each time)."""
        try:
            import jedi
        except ImportError:
            return [None] * len(keys)
        imports, references = zip(*(_probe(module, name, f"_tfscope_target{index}")
                                    for index, (_, module, name) in enumerate(keys)))
        probes = "\n".join(imports + references)
        path = os.path.join(folder, "__tfscope_probe__.py")
        _bound_parso_cache()
        try:
            script = jedi.Script(probes, path=path, project=self._jedi_project(folder))
        except Exception as error:  # jedi raises on odd environments; a miss is the answer
            log.info("tfscope: jedi could not start for %s: %s", folder, error)
            return [None] * len(keys)
        answers = []
        for index, ((_, module, name), reference) in enumerate(zip(keys, references)):
            if time.monotonic() > deadline:
                answers.append(_LATE)
                continue
            position = (len(imports) + index + 1, len(reference) - 1)
            try:
                names = script.goto(*position, follow_imports=True)
            except KeyError:  # parso dropped a module jedi was reading: once more from an emptied cache
                _bound_parso_cache(empty=True)
                script = jedi.Script(probes, path=path, project=self._jedi_project(folder))
                names = _goto_or_nothing(script, position, module, name)
            except Exception as error:  # jedi's caches race between processes; a miss is the answer
                log.info("tfscope: jedi could not resolve %s.%s: %s", module, name, error)
                names = []
            answers.append(_definition(names))
        return answers

    def _jedi_project(self, folder: str):
        """Python puts a script's own folder first on `sys.path`: so does the project for it."""
        project = self._projects.get(folder)
        if project is None:
            import jedi

            kwargs = {}
            if self.interpreter:
                kwargs["environment_path"] = self.interpreter
            root = self.root or os.getcwd()
            # the folder leads (jedi puts a project's own path first); the folder a package of the
            # project named like a library imports itself from (see ``own_packages``), then the root
            added = [path for path in dict.fromkeys([*library_named_package_parents(folder), root]) if path != folder]
            project = jedi.Project(folder, added_sys_path=added, **kwargs)
            self._projects[folder] = project
        return project

    def uses_tensorflow_1_apis(self, path: str) -> bool:
        """Whether the module at ``path`` (one ``lookup`` returned) calls TensorFlow-1-only APIs:
        a process that runs its code runs TensorFlow 1."""
        cached = self._modules.get(path)
        return cached is not None and cached[2]

    def module_tree(self, path: str) -> ast.Module | None:
        """The parsed module at ``path``, read again only when it changed; None if unreadable."""
        return self._module_tree(path)

    def _module_tree(self, path: str) -> ast.Module | None:
        mtime = modified(path)
        if mtime is None:
            return None
        cached = self._modules.get(path)
        if cached is not None and cached[0] == mtime:
            return cached[1]
        try:
            with open(path, "rb") as handle:
                text = handle.read()
            tree = ast.parse(text)
        except (OSError, SyntaxError, ValueError):
            text, tree = b"", None
        self._modules[path] = (mtime, tree, uses_tensorflow_1_apis(text.decode("utf-8", "replace")))
        return tree



def _top_level_definition(path: str, tree: ast.Module, name: str) -> Definition | None:
    """The one top-level `def`/`class`, or plain assignment (`REGISTRY = Registry()`), that binds
    ``name`` in ``tree``, when nothing else at the top binds it (an import, another assignment, a
    definition under `if`/`try`)."""
    found = None
    for statement in tree.body:
        if _defines(statement, name):
            if found is not None:
                return None
            found = statement
        elif (not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
              and not names_bound_by(statement).isdisjoint((name, "*"))):
            return None
    return Definition(path, found.lineno) if found is not None else None


def _defines(statement: ast.stmt, name: str) -> bool:
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name == name
    return assigned_name(statement) == name


_REEXPORT_DEPTH = 4  # re-exports followed through the project's modules


def _import_targets(tree: ast.Module, name: str) -> list[tuple[int, str]]:
    """(level, dotted module) of each top-level import binding ``name``, branches and `try` included,
    in file order; empty when anything else there binds it too."""
    imported, bound_otherwise = _top_level_imports(tree)
    return [] if bound_otherwise is None or name in bound_otherwise else imported.get(name, [])


@per_node
def _top_level_imports(tree: ast.Module) -> tuple[dict[str, list[tuple[int, str]]], set[str] | None]:
    """The targets of each name the module's top-level imports bind, and the names its other
    top-level statements bind (None after a `*` import, which may bind any name)."""
    imported: dict[str, list[tuple[int, str]]] = {}
    bound_otherwise: set[str] | None = set()
    for statement in _top_level_statements(tree.body):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                bound = alias.asname or alias.name.split(".")[0]
                imported.setdefault(bound, []).append((0, alias.name if alias.asname else bound))
        elif isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                if alias.name == "*":
                    bound_otherwise = None
                    break
                target = f"{statement.module}.{alias.name}" if statement.module else alias.name
                imported.setdefault(alias.asname or alias.name, []).append((statement.level, target))
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if bound_otherwise is not None:  # its name only: what its body stores is its own
                bound_otherwise.add(statement.name)
        elif bound_otherwise is not None:
            bound_otherwise.update(names_bound_by(statement))
    return imported, bound_otherwise


def _top_level_statements(body: list[ast.stmt]):
    """The statements run at a module's top level: those of its `if` and `try` blocks too."""
    for statement in body:
        if isinstance(statement, (ast.If, ast.Try)) or type(statement).__name__ == "TryStar":
            yield from _top_level_statements(statement.body)
            for block in (getattr(statement, "orelse", []), getattr(statement, "finalbody", [])):
                yield from _top_level_statements(block)
            for handler in getattr(statement, "handlers", []):
                yield from _top_level_statements(handler.body)
        else:
            yield statement


def _jedi_uses_this_interpreter(interpreter: str | None) -> bool:
    """Whether jedi's environment is the one running tfscope: no interpreter configured and no other
    virtual or conda environment active (jedi picks `VIRTUAL_ENV`, then `CONDA_PREFIX`, then this one)."""
    if interpreter:
        return False
    prefix = os.path.realpath(sys.prefix)
    return all(not os.environ.get(variable) or os.path.realpath(os.environ[variable]) == prefix
               for variable in ("VIRTUAL_ENV", "CONDA_PREFIX"))


@functools.lru_cache(maxsize=1)
def _added_paths() -> tuple[str, ...]:
    """The folders this interpreter's `sys.path` has besides its standard library and installed
    packages (`PYTHONPATH`, `.pth` files of editable installs): code there is not installed code."""
    library = {os.path.realpath(path) for name, path in sysconfig.get_paths().items() if name in ("stdlib", "platstdlib")}
    return tuple(path for path in sys.path if path and os.path.isdir(path)
                 and not _INSTALLED_CODE.intersection(os.path.normpath(path).split(os.sep))
                 and not any(os.path.realpath(path).startswith(folder) for folder in library))


def package_inits(path: str) -> list[str]:
    """The `__init__.py` of each package a module at ``path`` is in, outermost first: Python runs
    them, in this order, before the module itself."""
    inits = []
    folder = os.path.dirname(os.path.abspath(path))
    if os.path.basename(path) == "__init__.py":
        folder = os.path.dirname(folder)
    while os.path.isfile(init := os.path.join(folder, "__init__.py")):
        inits.append(init)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return inits[::-1]


def _module_file(stem: str) -> str | None:
    """The module a dotted path names: ``stem``.py, else the package ``stem``/__init__.py."""
    return next((candidate for candidate in (stem + ".py", os.path.join(stem, "__init__.py"))
                 if os.path.isfile(candidate)), None)


def _binds_at_top(tree: ast.Module, name: str) -> bool:
    """Whether the module's top level may bind ``name`` itself: then `from <package> import <name>`
    gives that binding, not the submodule of the same name."""
    return any(
        statement.name == name if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        else not names_bound_by(statement).isdisjoint((name, "*"))
        for statement in tree.body)


def _bound_parso_cache(empty: bool = False) -> None:
    """Empty parso's module cache before it reaches its eviction trigger. parso stamps a module
    with its file's modification time as its last use and, once 600 modules are cached, drops at
    each insert every module unused for ten minutes: a project's old files go while jedi still
    reads them (KeyError in jedi's `get_parso_cache_node`; jedi issues #1702, #1888), so answers
    would depend on how many modules the process had read before."""
    from parso.cache import parser_cache

    if empty or sum(len(modules) for modules in parser_cache.values()) >= _PARSO_CACHE_BOUND:
        parser_cache.clear()


def _goto_or_nothing(script, position: tuple[int, int], module: str, name: str) -> list:
    try:
        return script.goto(*position, follow_imports=True)
    except Exception as error:  # a miss is the answer
        log.info("tfscope: jedi could not resolve %s.%s: %s", module, name, error)
        return []


def consults_project(importer: str | None, module: str) -> bool:
    """Whether ``lookup`` answers from what jedi found: else it answers None, whatever jedi did."""
    return bool(importer) and module.lstrip(".").split(".")[0] not in _STDLIB


def _probe(module: str, name: str, alias: str) -> tuple[str, str]:
    """An import of ``name`` as ``alias`` and a line whose last name jedi can follow to its definition."""
    head, _, rest = name.partition(".")
    if head:
        return f"from {module} import {head} as {alias}", alias + (f".{rest}" if rest else "")
    return f"import {module} as {alias}", alias


# a module-level variable is a "statement" to jedi (`REGISTRY = Registry()`)
_DEFINITION_TYPES = ("function", "class", "statement")


def _definition(names) -> Definition | None:
    """The first function, class or module variable in a Python file of the project among jedi's
    answers: code an environment installed (pip, a library) is not the project's, and interpreting
    it could take as long as that library is big."""
    for found in names:
        path = found.module_path
        if (path and str(path).endswith(".py") and found.type in _DEFINITION_TYPES and found.line
                and not _INSTALLED_CODE.intersection(os.path.normpath(str(path)).split(os.sep))):
            return Definition(str(path), found.line)
    return None
