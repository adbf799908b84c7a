"""Finding and reading the files to check: ``.py`` and ``.ipynb``, read the way Python reads them."""

from __future__ import annotations

import codecs
import io
import os
import stat
import tokenize
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple, TYPE_CHECKING

from tfscope.config import Settings, is_excluded
from tfscope.notebook import NotebookError, read_notebook
from tfscope.source import Source

if TYPE_CHECKING:
    import pathspec

SOURCE_SUFFIXES = (".py", ".ipynb")
NOTEBOOK_SUFFIX = ".ipynb"
# never user code worth checking, and often huge: ruff's default exclusions, plus caches,
# installed packages and jupyter-lsp's shadow copies (`.virtual_documents/nb.ipynb` holds the
# cells as Python, not JSON); skipped in folder walks whatever `exclude` says
SKIPPED_FOLDERS = frozenset(
    {".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".ipynb_checkpoints", ".mypy_cache", ".nox",
     ".pants.d", ".pyenv", ".pytest_cache", ".pytype", ".ruff_cache", ".svn", ".tox", ".venv", ".virtual_documents",
     ".vscode", "__pycache__", "__pypackages__", "_build", "buck-out", "build", "dist", "dist-packages",
     "node_modules", "site-packages", "venv"}
)
VIRTUALENV_MARKER = "pyvenv.cfg"  # a folder holding one is a virtual environment, whatever its name
IGNORE_FILE_NAMES = (".ignore", ".gitignore")  # in each folder; the first has precedence
NOT_A_REGULAR_FILE = "not a regular file (a FIFO, socket or device); skipped"


class ReadError(Exception):
    """A file that cannot be checked; the message says why, without the path."""


class SourceFile(NamedTuple):
    """A checked file's text as read, with what is needed to write it back unchanged otherwise."""

    source: Source
    raw: str  # the decoded file: the notebook JSON, or the same as source.text for .py
    encoding: str


@dataclass
class Discovery:
    files: list[Path]  # sorted, unique
    missing: list[str]  # given paths that do not exist
    skipped: list[tuple[str, str]]  # (path, why): found but not checkable (a FIFO named x.py)


def discover(paths: Iterable[str | os.PathLike], settings_for: Callable[[Path], Settings]) -> Discovery:
    """Files to check under ``paths``, as ruff finds them.

    Folders are walked for ``.py`` and ``.ipynb`` files, leaving out SKIPPED_FOLDERS, virtual
    environments, what ``.gitignore``/``.ignore``/``.git/info/exclude`` ignore (``respect-gitignore``)
    and ``exclude``/``extend-exclude``. A file named explicitly is checked whatever its suffix
    and whatever those say, unless ``force-exclude`` (a pre-commit hook passes file names).
    """
    found: dict[Path, None] = {}
    missing: list[str] = []
    skipped: list[tuple[str, str]] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            found.update(dict.fromkeys(_walk(path, settings_for, skipped)))
        elif os.path.lexists(path):  # a broken or looping link is reported by the read, with its reason
            settings = settings_for(path)
            if settings.force_exclude and (is_excluded(settings, path) or _in_skipped_folder(path, settings.root)):
                continue
            if _is_special(path):
                skipped.append((str(given), NOT_A_REGULAR_FILE))
            else:
                found[path] = None
        else:
            missing.append(str(given))
    return Discovery(sorted(found), missing, skipped)


def _walk(folder: Path, settings_for: Callable[[Path], Settings], skipped: list[tuple[str, str]]) -> Iterator[Path]:
    ignore_rules = IgnoreRules(Path(os.path.abspath(folder)))
    for current, folders, files in os.walk(folder):
        current_path = Path(current)
        settings = settings_for(current_path)
        gitignore = settings.respect_gitignore
        folders[:] = sorted(
            name
            for name in folders
            if name not in SKIPPED_FOLDERS
            and not (current_path / name / VIRTUALENV_MARKER).is_file()
            and not is_excluded(settings, current_path / name)
            and not (gitignore and ignore_rules.ignored(current_path / name, is_dir=True))
        )
        for name in sorted(files):
            path = current_path / name
            if path.suffix not in SOURCE_SUFFIXES or is_excluded(settings, path):
                continue
            if gitignore and ignore_rules.ignored(path, is_dir=False):
                continue
            if _is_special(path):
                skipped.append((str(path), NOT_A_REGULAR_FILE))
            else:
                yield path


def _is_special(path: Path) -> bool:
    """A FIFO, socket or device: reading it could block forever. A broken link is not special."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except OSError:
        return False


def _in_skipped_folder(path: Path, root: str | None) -> bool:
    """Whether a folder between ``root`` (or the working folder) and ``path`` is always skipped."""
    absolute = Path(os.path.abspath(path))
    base = Path(os.path.abspath(root or os.getcwd()))
    try:
        folders = absolute.parent.relative_to(base).parts
    except ValueError:
        return False
    for depth, name in enumerate(folders):
        if name in SKIPPED_FOLDERS or (base.joinpath(*folders[: depth + 1]) / VIRTUALENV_MARKER).is_file():
            return True
    return False


def is_skipped(settings: Settings, path: str | os.PathLike) -> bool:
    """Whether a folder walk from ``settings.root`` would leave ``path`` out: the language
    server asks this for each open document, so the editor and ``tfscope check .`` agree."""
    path = Path(os.path.abspath(path))
    if is_excluded(settings, path) or _in_skipped_folder(path, settings.root):
        return True
    if not settings.respect_gitignore:
        return False
    top = Path(os.path.abspath(settings.root or path.parent))
    try:
        folders = path.parent.relative_to(top).parts
    except ValueError:
        top, folders = path.parent, ()
    rules = IgnoreRules(top)
    for depth in range(len(folders)):
        if rules.ignored(top.joinpath(*folders[: depth + 1]), is_dir=True):
            return True
    return rules.ignored(path, is_dir=False)


# ---------------------------------------------------------------- .gitignore, .ignore, .git/info/exclude


class IgnoreRules:
    """What ignore files say about paths under ``start``, with git's precedence: the nearest
    folder's files first (``.ignore``, then ``.gitignore``, then ``.git/info/exclude`` at the
    repository root), and in a file the last matching line. Files above ``start`` count up to
    the repository root (the folder holding ``.git``); outside a repository, from ``start`` down."""

    def __init__(self, start: Path) -> None:
        self.top = repository_root(start) or start
        self._specs: dict[Path, list[IgnoreFile]] = {}

    def ignored(self, path: Path, is_dir: bool) -> bool:
        path = Path(os.path.abspath(path))
        folder = path.parent
        while True:
            for ignore_file in self._specs_in(folder):
                spec = ignore_file.folders if is_dir else ignore_file.files
                decision = spec.check_file(path.relative_to(folder).as_posix()).include
                if decision is not None:
                    return decision
            if folder == self.top or folder.parent == folder or not folder.is_relative_to(self.top):
                return False
            folder = folder.parent

    def _specs_in(self, folder: Path) -> list[IgnoreFile]:
        if folder not in self._specs:
            files = [folder / name for name in IGNORE_FILE_NAMES]
            if (folder / ".git").is_dir():
                files.append(folder / ".git" / "info" / "exclude")
            self._specs[folder] = [spec for spec in map(_ignore_spec, files) if spec is not None]
        return self._specs[folder]


def repository_root(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` that holds a `.git`."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


class IgnoreFile(NamedTuple):
    """An ignore file read twice: as git matches a file's path, and as it matches a folder's.

    pathspec matches a folder pattern (`plugins/`) against the paths under the folder and lets
    any pattern that names a file outrank it, so `*` then `!plugins/` would leave the folder out.
    Git matches each folder's own path, the last matching line deciding; matched as a file path
    against the lines without their trailing `/`, a folder gets git's answer."""

    files: pathspec.GitIgnoreSpec
    folders: pathspec.GitIgnoreSpec


def _ignore_spec(path: Path) -> IgnoreFile | None:
    try:
        status = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(status.st_mode):
        return None
    return _parsed_ignore_file(str(path), status.st_mtime_ns, status.st_size)


@lru_cache(maxsize=1024)
def _parsed_ignore_file(path: str, mtime_ns: int, size: int) -> IgnoreFile | None:
    """Keyed by modification time and size, so the server sees an edited .gitignore."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            lines = handle.read().splitlines()
    except OSError:
        return None
    try:
        return _ignore_file(lines)
    except Exception:  # a line pathspec cannot read: git ignores such a line, so do we
        return _ignore_file([line for line in lines if _readable_ignore_line(line)])


def _ignore_file(lines: list[str]) -> IgnoreFile:
    import pathspec  # about 10 % of the engine's import, and only a folder with an ignore file needs it

    folder_lines = [_without_folder_mark(line) for line in lines]
    return IgnoreFile(pathspec.GitIgnoreSpec.from_lines(lines), pathspec.GitIgnoreSpec.from_lines(folder_lines))


def _without_folder_mark(line: str) -> str:
    """`build/` as a pattern for a folder's own path: `build` (a lone `/` stays: it matches nothing)."""
    pattern = line.rstrip(" ")
    return pattern[:-1] if pattern.endswith("/") and pattern.strip("!/") else line


def _readable_ignore_line(line: str) -> bool:
    try:
        _ignore_file([line])
    except Exception:
        return False
    return True


def read_source_file(path: Path) -> SourceFile:
    """Read ``path`` as Python would (PEP 263 cookie, BOM), or as a notebook; ReadError if not possible."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ReadError(error.strerror or str(error)) from None
    return source_file_from_bytes(path, data)


def source_file_from_bytes(path: Path, data: bytes) -> SourceFile:
    """``data`` read as the file ``path`` would be (standard input given a ``--stdin-filename``)."""
    if path.suffix == NOTEBOOK_SUFFIX:
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
        text = _decode(data, encoding)
        try:
            return SourceFile(read_notebook(text, path=str(path)), text, encoding)
        except NotebookError as error:
            raise ReadError(str(error)) from None
        except RecursionError:  # json recurses once per nested bracket
            raise ReadError("not a notebook: its JSON is nested too deeply to read") from None
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
    except UnicodeError as error:  # a codec that refuses every input (`# coding: undefined`)
        raise ReadError(f"cannot decode as {encoding}: {error}") from None
    except LookupError:
        raise ReadError(f"unknown encoding {encoding!r}") from None


def write_text(path: Path, text: str, encoding: str) -> None:
    """Write back with the encoding (and BOM) the file was read with; line breaks are kept as they are."""
    path.write_bytes(text.encode(encoding))
