"""What the user's environment has installed, read from package metadata files (never imported)."""

from __future__ import annotations

import glob
import os
import re
from functools import lru_cache

_VERSION_LINE = re.compile(r"^Version:\s*(\S+)", re.MULTILINE)
_FIRST_KERAS_3_TENSORFLOW = (2, 16)


def keras_major_version(interpreter: str | None) -> int | None:
    """2 or 3 from the installed keras / tensorflow / tf_keras of ``interpreter``'s environment."""
    if not interpreter:
        return None
    return keras_major_version_in_prefix(os.path.dirname(os.path.dirname(os.path.abspath(interpreter))))


def keras_major_version_in_prefix(prefix: str) -> int | None:
    """The same for the environment installed at ``prefix`` (a virtualenv or conda folder)."""
    site_packages = _site_packages(prefix)
    if not site_packages:
        return None
    stamp = tuple(_mtime(path) for path in site_packages)
    return _keras_major_version(tuple(site_packages), stamp)


@lru_cache(maxsize=16)
def _keras_major_version(site_packages: tuple[str, ...], stamp: tuple[float, ...]) -> int | None:
    keras = _installed_version(site_packages, "keras")
    if keras is not None:
        return 3 if keras[0] >= 3 else 2
    tensorflow = _installed_version(site_packages, "tensorflow")
    if tensorflow is not None:
        return 3 if tensorflow[:2] >= _FIRST_KERAS_3_TENSORFLOW else 2
    return None


def _site_packages(prefix: str) -> list[str]:
    """The environment's site-packages, found below its prefix by convention."""
    patterns = ("lib/python3*/site-packages", "lib64/python3*/site-packages", "Lib/site-packages")
    return sorted(path for pattern in patterns for path in glob.glob(os.path.join(prefix, pattern)))


def _installed_version(site_packages: tuple[str, ...], distribution: str) -> tuple[int, ...] | None:
    for folder in site_packages:
        for metadata in glob.glob(os.path.join(folder, f"{distribution}-*.dist-info", "METADATA")):
            try:
                with open(metadata, encoding="utf-8", errors="replace") as handle:
                    match = _VERSION_LINE.search(handle.read(4096))
            except OSError:
                continue
            if match:
                return tuple(int(part) for part in re.findall(r"\d+", match.group(1))[:3])
    return None


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0
