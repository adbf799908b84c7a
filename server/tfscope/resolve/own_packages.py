"""Imports that name a library but reach a package of the user's own project.

A file in `detector/keras/train.py` (with `detector/keras/__init__.py`) that says `from keras
import train_lib` runs with `detector/` on `sys.path` (`python -m keras.train`): Python finds the
regular package `detector/keras/` before the installed Keras, so the import is the project's
(google/automl's `efficientdet/keras/` is such a package). tfscope takes an import of a library
name as the project's only when the imported module is a file of a package the importing file
sits in: a name only the library has (`from keras import layers` beside no `layers.py`) stays the
library's.
"""

from __future__ import annotations

import os
import threading
import time

from tfscope.resolve.catalog import KNOWN_ROOTS

# the package folders around a file are read again after this long: an edit of the open file reads none
_FOLDERS_SECONDS = 30.0
_lock = threading.Lock()
_packages_by_folder: dict[str, tuple[float, dict[str, str]]] = {}


def imports_own_package(importer: str | None, module: str, name: str = "") -> bool:
    """Whether ``from <module> import <name>`` (``import <module>`` when ``name`` is empty) in the
    file at ``importer`` imports a module of a regular package the file sits in."""
    if not importer:
        return False
    top, *inner = module.split(".")
    folder = _enclosing_packages(os.path.dirname(os.path.abspath(importer))).get(top)
    if folder is None:
        return False
    module_path = os.path.join(folder, *inner)
    if inner and not _is_module(module_path):
        return False
    if not name:
        return bool(inner)  # `import keras` alone names no module of the package: the library's
    # `from keras.sub import x` takes x from the project's module; `from keras import x` needs x a module of it
    return bool(inner) or _is_module(os.path.join(module_path, name))


def sits_in_package(path: str | None, name: str) -> bool:
    """Whether the file at ``path`` is inside a regular package of the project called ``name``."""
    return bool(path) and name in _enclosing_packages(os.path.dirname(os.path.abspath(path)))


def library_named_package_parents(folder: str) -> list[str]:
    """The folders above each regular package ``folder`` sits in that is named like a library tfscope
    knows (`keras`), nearest first: Python imports such a package from there, before the library."""
    return [os.path.dirname(package) for name, package in _enclosing_packages(os.path.abspath(folder)).items()
            if name in KNOWN_ROOTS]


def package_parent(folder: str, name: str) -> str | None:
    """The folder above the regular package ``name`` that ``folder`` sits in: where an absolute
    import of that package by a module inside it (`from textclf.backend import keras` in
    `textclf/models.py`) finds it, since the package is importable only from there."""
    package = _enclosing_packages(os.path.abspath(folder)).get(name)
    return os.path.dirname(package) if package is not None else None


def _is_module(path: str) -> bool:
    return os.path.isfile(path + ".py") or os.path.isdir(path)


def _enclosing_packages(folder: str) -> dict[str, str]:
    """The regular packages (folders with `__init__.py`) from ``folder`` up, by name."""
    now = time.monotonic()
    with _lock:
        cached = _packages_by_folder.get(folder)
    if cached is not None and now - cached[0] < _FOLDERS_SECONDS:
        return cached[1]
    packages: dict[str, str] = {}
    current = folder
    while os.path.isfile(os.path.join(current, "__init__.py")):
        packages.setdefault(os.path.basename(current), current)
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    with _lock:
        _packages_by_folder[folder] = (now, packages)
    return packages
