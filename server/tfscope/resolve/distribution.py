"""Which tf.distribute strategies the user's project creates: the evidence that code whose
callers tfscope cannot see (a library function, a loss class) may run under one, and of what kind.

Files are read as text, never imported. The project is the nearest folder above the file with a project marker
(`pyproject.toml`, `setup.py`, `setup.cfg`), then the repository around it, never above the
settings root; its files are found as `tfscope check` finds them (`.gitignore`, virtual
environments and build folders left out). Test code is neither evidence nor subject: tests run
under the strategies they set up themselves, which their own analysis sees.
"""

from __future__ import annotations

import os
import re
import threading
import time
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from tfscope.config import Settings
from tfscope.resolve.catalog import STRATEGY_CLASSES

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")
# a large monorepo is not read whole on an analysis's path: past this many files, no evidence
MAX_FILES = 5000
# the file list of a project is taken again after this long (files come and go while editing)
LISTING_SECONDS = 30.0
_TEST_FOLDERS = frozenset({"test", "tests", "testing", "integration_test", "integration_tests"})
# import statements, a parenthesised name list included
_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+(?P<source>\.*[\w.]*)[ \t]+import[ \t]+(?P<names>\([^)]*\)|[^#\n]*)"
                     r"|import[ \t]+(?P<modules>[^#\n]*))", re.MULTILINE)
# (literal every match holds, pattern): each tried only on texts that hold its literal, since
# a pattern of alternatives is tried at every position of a long file
_TESTS = (
    ("test", re.compile(r"^[ \t]*(?:async[ \t]+)?def[ \t]+test", re.MULTILINE)),
    ("Test", re.compile(r"^[ \t]*class[ \t]+\w*Test\w*[ \t]*[(:]", re.MULTILINE)),
    ("unittest", re.compile(r"\bunittest\b")),
    ("absltest", re.compile(r"\babsltest\b")),
    ("tf.test.TestCase", re.compile(r"\btf\.test\.TestCase\b")),
)
# the scripts read to see a module's code run under their strategies
MAX_DRIVERS = 4
# a construction on a line of code: not behind a comment, nor an example in a docstring (`>>> `, `... `)
_CREATION = re.compile(r"^(?![ \t]*(?:>>>|\.\.\.)(?:[ \t]|$))[^#\n]*?\b(?P<name>" + "|".join(sorted(STRATEGY_CLASSES))
                       + r")\s*\(", re.MULTILINE)

_STRATEGY_NAME_END = "Strategy"
assert all(name.endswith(_STRATEGY_NAME_END) for name in STRATEGY_CLASSES)


def _is_test_code(text: str) -> bool:
    return any(literal in text and pattern.search(text) for literal, pattern in _TESTS)


def _creations_in(text: str):
    """``_CREATION``'s matches, tried only on the lines that name a strategy class (each class's
    name ends so): most files name none, and the pattern is slow on every line of a long one."""
    end = 0
    while (found := text.find(_STRATEGY_NAME_END, end)) != -1:
        start = text.rfind("\n", 0, found) + 1
        end = text.find("\n", found)
        end = len(text) if end == -1 else end
        match = _CREATION.match(text, start)
        if match is not None:
            yield match


class ProjectStrategy(NamedTuple):
    path: str  # relative to the project folder, `/`-separated
    line: int  # 1-based; for a notebook, the line in the file's JSON text
    name: str  # the strategy class

    def describe(self) -> str:
        return f"`{self.name}` ({self.path}:{self.line})"


class _FileFacts(NamedTuple):
    creations: tuple[tuple[str, int], ...]  # (strategy class, line) of each construction
    imports: frozenset[str]  # the modules its imports name, dotted (`from a.b import c`: a.b and a.b.c)
    defines_tests: bool  # what a test runner collects: `def test...`, a `unittest`/pytest test class


_NO_FACTS = _FileFacts((), frozenset(), False)


class _Source(NamedTuple):
    """A file of a project's listing, with what its path says (worked out once per listing)."""

    path: Path
    key: str  # ``str(path)``, as an analysed file's absolute path is compared
    relative: str  # relative to the project folder, `/`-separated
    in_test_folder: bool
    named_as_test: bool  # or a helper of tests (see ``is_test_code``)

    @classmethod
    def of(cls, path: Path, project: Path) -> _Source:
        relative = path.relative_to(project)
        return cls(path, str(path), relative.as_posix(), _in_test_folder(relative), is_test_code(relative))


class _ProjectScan:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        # project folder -> (when, its files that created a strategy when the listing was taken)
        self._listings: dict[str, tuple[float, list[_Source]]] = {}
        self._facts: dict[tuple[str, int, int], _FileFacts] = {}
        # (file, settings root) -> (when, what ``_creations`` found): asked on every analysis of it
        self._reaching: dict[tuple[str, str | None], tuple[float, tuple[tuple[Path, ProjectStrategy], ...]]] = {}

    def strategies_created(self, path: str, settings: Settings) -> tuple[ProjectStrategy, ...]:
        """The strategies the project's other non-test files create where they import this module's
        top-level package (or the module itself): the code that may run it under them. A book's
        chapters or a folder of unrelated scripts share nothing."""
        return tuple(dict.fromkeys(created for _, created in self._reaching_strategies(path, settings)))

    def drivers_of(self, path: str, settings: Settings) -> tuple[tuple[str, str], ...]:
        """(path, path in the project) of those files that are scripts (`.py`), nearest first."""
        drivers = dict.fromkeys((str(candidate), created.path)
                                for candidate, created in self._reaching_strategies(path, settings)
                                if candidate.suffix == ".py")
        return tuple(drivers)[:MAX_DRIVERS]

    def _reaching_strategies(self, path: str, settings: Settings) -> tuple[tuple[Path, ProjectStrategy], ...]:
        """``_creations``, taken again after ``LISTING_SECONDS`` as the listing is: an edit of the
        open file reads no other file."""
        key = (os.path.abspath(path) if path else "", settings.root)
        with self._lock:
            cached = self._reaching.get(key)
        if cached is not None and time.monotonic() - cached[0] < LISTING_SECONDS:
            return cached[1]
        found = tuple(self._creations(path, settings))
        with self._lock:
            self._reaching[key] = (time.monotonic(), found)
        return found

    def _creations(self, path: str, settings: Settings):
        analysed = os.path.abspath(path) if path else ""
        projects = project_folders(path, settings.root)
        packages = top_level_packages(analysed, projects)
        for project in projects:
            if is_test_code(Path(analysed).relative_to(project)):
                break  # test code of this folder: its strategies are the tests' own
            for source in self._creating_files(project):
                if source.key == analysed:
                    continue  # the file's own strategies are in its own analysis
                facts = self._read(source.path)  # read again when it changed: its strategy may be gone
                # named as a test and defining tests (a `test_*.py` try-out script that runs top to bottom is a script)
                if source.named_as_test and facts.defines_tests:
                    continue
                if not facts.creations:
                    continue
                if not _imports_reach(facts.imports, packages | _top_beside(source.path, analysed)):
                    continue
                for name, line in facts.creations:
                    yield source.path, ProjectStrategy(source.relative, line, name)

    def _creating_files(self, project: Path) -> list[_Source]:
        """The project's non-test files that create a strategy, found once per ``LISTING_SECONDS``
        (files come and go while editing): each analysis then looks at those few, not at every file,
        so checking a whole project stays linear in its files."""
        from tfscope import files  # the folder walk of `tfscope check`

        key = str(project)
        with self._lock:
            cached = self._listings.get(key)
        if cached is not None and time.monotonic() - cached[0] < LISTING_SECONDS:
            return cached[1]
        settings = Settings(root=key)
        found = files.discover([project], lambda _folder: settings).files
        listing = [_Source.of(path, project) for path in found] if len(found) <= MAX_FILES else []
        creating = [source for source in listing if not source.in_test_folder and self._read(source.path).creations]
        with self._lock:
            self._listings[key] = (time.monotonic(), creating)
        return creating

    def _read(self, path: Path) -> _FileFacts:
        try:
            status = path.stat()
        except OSError:
            return _NO_FACTS
        key = (str(path), status.st_mtime_ns, status.st_size)
        with self._lock:
            if key in self._facts:
                return self._facts[key]
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        creations = []
        line, counted = 1, 0  # lines are counted on from the last creation, not from the top each time
        for match in _creations_in(text):
            line += text.count("\n", counted, match.start("name"))
            counted = match.start("name")
            creations.append((match["name"], line))
        facts = _FileFacts(tuple(creations), _imported_modules(text) if creations else frozenset(),
                           _is_test_code(text))
        with self._lock:
            self._facts[key] = facts
        return facts


def _imported_modules(text: str) -> frozenset[str]:
    found = set()
    for match in _IMPORT.finditer(text):
        if match["source"] is not None:
            if match["source"].startswith("."):
                continue  # relative: a module of the importer's own package
            found.add(match["source"])
            names = match["names"].strip().strip("()")
            found.update(f"{match['source']}.{name.split()[0]}" for name in names.split(",") if name.split())
        else:
            found.update(name.split()[0] for name in match["modules"].split(",") if name.split())
    return frozenset(found)


def _top_beside(script: Path, path: str) -> frozenset[str]:
    """The import that reaches ``path`` from ``script``, whose own folder Python puts on `sys.path`
    (`from libs import train` in `app/main.py` reaches `app/libs/train.py`; see ``_import_of``)."""
    spelled = _import_of(os.path.dirname(str(script)), path, _span())
    return frozenset((spelled,)) if spelled else frozenset()


def top_level_packages(path: str, projects: list[Path]) -> frozenset[str]:
    """The imports that reach the module at ``path``: its top-level package (or its own name, at a
    root), seen from each folder Python may put on `sys.path` for it: a project folder, a folder
    with a project marker between it and the file, and their `src/` (see ``_import_of``)."""
    if not path or not projects:
        return frozenset()
    span = _span()
    roots = _import_roots(os.path.dirname(path), tuple(projects), span)
    return frozenset(spelled for root in roots if (spelled := _import_of(root, path, span)))


def _imports_reach(imported: frozenset[str], reaching: frozenset[str]) -> bool:
    """Whether a file importing the modules ``imported`` runs one of ``reaching`` (a package, by
    its top-level name: importing any part of it counts; a module of a namespace folder, by its
    dotted path)."""
    return any(name.split(".", 1)[0] in reaching or name in reaching
               or any(name.startswith(f"{dotted}.") for dotted in reaching if "." in dotted)
               for name in imported)


@lru_cache(maxsize=1024)
def _import_roots(folder: str, projects: tuple[Path, ...], span: int) -> tuple[str, ...]:
    """The folders Python may import a module of ``folder`` from (see ``top_level_packages``)."""
    roots = {projects[-1]}
    for candidate in (Path(folder), *Path(folder).parents):
        if candidate in projects or _folder_marks(candidate, span).project:
            roots.add(candidate)
        if candidate == projects[-1]:
            break
    roots |= {root / "src" for root in roots}
    return tuple(str(root) for root in roots)


@lru_cache(maxsize=4096)
def _import_of(folder: str, path: str, span: int) -> str | None:
    """How an import spells the module at ``path`` from ``folder`` on `sys.path`: `pkg` for a module
    of the package `folder/pkg/` (importing any part of it may run it), `m` for `folder/m.py`; None
    when it is not below ``folder`` or a name is no identifier. A folder without `__init__.py` is a
    namespace package: importing it runs none of its modules, and an installed library of its name
    (`keras_tuner` beside a guide on it) wins, so only the module's own dotted path reaches it."""
    prefix = folder.rstrip(os.sep) + os.sep
    if not path.startswith(prefix):
        return None
    parts = path[len(prefix):].split(os.sep)
    parts[-1] = os.path.splitext(parts[-1])[0]
    if not parts[0].isidentifier():
        return None
    if len(parts) == 1 or os.path.exists(os.path.join(folder, parts[0], "__init__.py")):
        return parts[0]
    return ".".join(parts) if all(part.isidentifier() for part in parts) else None


def is_test_code(path: Path) -> bool:
    """A test module, or a helper of tests (`tests/models/bert.py`, `test_utils.py`)."""
    stem = path.stem
    return (_in_test_folder(path) or stem.startswith("test")
            or stem.endswith(("_test", "_tests")) or "test_util" in stem or "testing_util" in stem)


def _in_test_folder(path: Path) -> bool:
    return any(part in _TEST_FOLDERS for part in path.parent.parts)


def project_folders(path: str | None, root: str | None) -> list[Path]:
    """Where to look, nearest first: the folder with the nearest project marker, then the
    repository around it (the code that uses a library package often sits beside it, in
    `use-cases/` or `examples/`); never above the settings root."""
    if not path:
        return []
    return list(_project_folders(os.path.dirname(os.path.abspath(path)), root, _span()))


@lru_cache(maxsize=1024)
def _project_folders(folder: str, root: str | None, span: int) -> tuple[Path, ...]:
    """``project_folders`` of the files of ``folder``: every file of a project asks about the same folders."""
    limit = Path(os.path.abspath(root)) if root else None
    found: list[Path] = []
    for candidate in (Path(folder), *Path(folder).parents):
        marks = _folder_marks(candidate, span)
        if marks.repository or (not found and marks.project):
            found.append(candidate)
        if marks.repository or candidate == limit:
            return tuple(found or [candidate])
    return tuple(found)


def _span() -> int:
    """The current period of ``LISTING_SECONDS``: what the file system said is cached for one
    period (files and folders come and go while editing)."""
    return int(time.monotonic() // LISTING_SECONDS)


class _FolderMarks(NamedTuple):
    repository: bool  # holds `.git`
    project: bool  # holds a project marker


@lru_cache(maxsize=4096)
def _folder_marks(folder: Path, span: int) -> _FolderMarks:
    """What marks ``folder`` during the period ``span`` (see ``_span``)."""
    return _FolderMarks((folder / ".git").exists(), any((folder / marker).exists() for marker in PROJECT_MARKERS))


_scan = _ProjectScan()
strategies_created = _scan.strategies_created
drivers_of = _scan.drivers_of
