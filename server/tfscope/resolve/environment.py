"""What the user's environment has installed, read from package metadata (never imported)."""

from __future__ import annotations

import glob
import os
from functools import lru_cache
from typing import NamedTuple

from packaging.version import InvalidVersion, Version

from tfscope.stamps import modified

# Distributions that provide `keras` / `tensorflow`, under every name they ship as.
_KERAS_DISTRIBUTIONS = frozenset({"keras", "keras-nightly"})
_TENSORFLOW_DISTRIBUTIONS = frozenset({"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos",
                                       "tensorflow-intel", "intel-tensorflow", "tf-nightly", "tf-nightly-cpu"})
# Where environments keep installed packages: venv/conda, Debian's dist-packages, Windows.
_SITE_PATTERNS = ("lib/python3*/site-packages", "lib64/python3*/site-packages", "lib/python3*/dist-packages",
                  "Lib/site-packages")


class Installed(NamedTuple):
    keras: Version | None
    tensorflow: Version | None


def installed_for_interpreter(interpreter: str | None) -> Installed | None:
    """keras and tensorflow installed in ``interpreter``'s environment."""
    if not interpreter:
        return None
    return installed_in_prefix(os.path.dirname(os.path.dirname(os.path.abspath(interpreter))))


def installed_in_prefix(prefix: str) -> Installed | None:
    """The same for the environment installed at ``prefix`` (a virtualenv or conda folder)."""
    site_packages = tuple(sorted(path for pattern in _SITE_PATTERNS for path in glob.glob(os.path.join(prefix, pattern))))
    if not site_packages:
        return None
    found = _installed(site_packages, tuple(modified(path) for path in site_packages))
    return found if found.keras or found.tensorflow else None


@lru_cache(maxsize=16)
def _installed(site_packages: tuple[str, ...], stamp: tuple[float, ...]) -> Installed:
    # with email and zipfile, and packaging.tags and sysconfig, a sixth of the engine's import:
    # only environments need them
    from importlib import metadata

    from packaging.utils import canonicalize_name

    keras = tensorflow = None
    for distribution in metadata.distributions(path=list(site_packages)):
        name = canonicalize_name(distribution.metadata.get("Name") or "")
        version = _version(distribution.version)
        if name in _KERAS_DISTRIBUTIONS and keras is None:
            keras = version
        elif name in _TENSORFLOW_DISTRIBUTIONS and tensorflow is None:
            tensorflow = version
    return Installed(keras, tensorflow)


def _version(text: str | None) -> Version | None:
    try:
        return Version(text or "")
    except InvalidVersion:
        return None
