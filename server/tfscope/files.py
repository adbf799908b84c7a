"""Finding and reading the files to check: ``.py`` and ``.ipynb``, read the way Python reads them."""

from __future__ import annotations

import codecs
import io
import os
import tokenize
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Iterator

from tfscope.config import Settings, is_excluded
from tfscope.notebook import NotebookError, read_notebook
from tfscope.source import Source

SOURCE_SUFFIXES = (".py", ".ipynb")
NOTEBOOK_SUFFIX = ".ipynb"
# never user code worth checking, and often huge
SKIPPED_FOLDERS = frozenset(
    {".venv", "venv", ".git", ".hg", "node_modules", "__pycache__", "build", "dist", ".tox", ".nox",
     ".mypy_cache", ".pytest_cache", ".ruff_cache"}
)


class ReadError(Exception):
    """A file that cannot be checked; the message says why, without the path."""


@dataclass(frozen=True)
class SourceFile:
    """A checked file's text as read, with what is needed to write it back unchanged otherwise."""

    source: Source
    raw: str  # the decoded file: the notebook JSON, or the same as source.text for .py
    encoding: str


def discover(paths: Iterable[str | os.PathLike], settings_for: Callable[[Path], Settings]) -> tuple[list[Path], list[str]]:
    """Files to check under ``paths`` (sorted, unique), and the given paths that do not exist.

    Folders are walked for ``.py`` and ``.ipynb`` files; a file named explicitly is checked
    whatever its suffix. ``exclude`` globs apply to both (a pre-commit hook passes files).
    """
    found: dict[Path, None] = {}
    missing: list[str] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.update(dict.fromkeys(_walk(path, settings_for)))
        elif os.path.lexists(path):  # a broken or looping link is reported by the read, with its reason
            if not is_excluded(settings_for(path), path):
                found[path] = None
        else:
            missing.append(str(given))
    return sorted(found), missing


def _walk(folder: Path, settings_for: Callable[[Path], Settings]) -> Iterator[Path]:
    for current, folders, files in os.walk(folder):
        current_path = Path(current)
        settings = settings_for(current_path)
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED_FOLDERS and not is_excluded(settings, current_path / name)
        )
        for name in files:
            path = current_path / name
            if path.suffix in SOURCE_SUFFIXES and not is_excluded(settings, path):
                yield path


def read_source_file(path: Path) -> SourceFile:
    """Read ``path`` as Python would (PEP 263 cookie, BOM), or as a notebook; ReadError if not possible."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReadError(error.strerror or str(error)) from None
    if path.suffix == NOTEBOOK_SUFFIX:
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
        text = _decode(data, encoding)
        try:
            return SourceFile(read_notebook(text, path=str(path)), text, encoding)
        except NotebookError as error:
            raise ReadError(str(error)) from None
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        raise ReadError(str(error)) from None
    text = _decode(data, encoding)
    return SourceFile(Source(text=text, path=str(path)), text, encoding)


def _decode(data: bytes, encoding: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise ReadError(f"cannot decode as {encoding}: {error.reason} at byte {error.start}") from None
    except LookupError:
        raise ReadError(f"unknown encoding {encoding!r}") from None


def write_text(path: Path, text: str, encoding: str) -> None:
    """Write back with the encoding (and BOM) the file was read with; line breaks are kept as they are."""
    path.write_bytes(text.encode(encoding))
