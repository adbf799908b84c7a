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
from dataclasses import dataclass
from pathlib import Path

from tfscope.config import Settings
from tfscope.resolve.catalog import STRATEGY_CLASSES

PROJECT_MARKERS = ("pyproject.toml", "setup.py", "setup.cfg")
# a large monorepo is not read whole on an analysis's path: past this many files, no evidence
MAX_FILES = 5000
# the file list of a project is taken again after this long (files come and go while editing)
LISTING_SECONDS = 30.0
_TEST_FOLDERS = frozenset({"test", "tests", "testing", "integration_test", "integration_tests"})
_CREATION = re.compile(r"^[^#\n]*?\b(?P<name>" + "|".join(sorted(STRATEGY_CLASSES)) + r")\s*\(", re.MULTILINE)


@dataclass(frozen=True)
class ProjectStrategy:
    path: str  # relative to the project folder, `/`-separated
    line: int  # 1-based; for a notebook, the line in the file's JSON text
    name: str  # the strategy class

    def describe(self) -> str:
        return f"`{self.name}` ({self.path}:{self.line})"


class _ProjectScan:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listings: dict[str, tuple[float, list[Path]]] = {}
        self._found_in: dict[tuple[str, int, int], tuple[tuple[str, int], ...]] = {}

    def strategies_created(self, path: str, settings: Settings) -> tuple[ProjectStrategy, ...]:
        """Every strategy construction in the project's other non-test files, nearest project first."""
        analysed = os.path.abspath(path) if path else ""
        created: list[ProjectStrategy] = []
        for project in project_folders(path, settings.root):
            if is_test_code(Path(analysed).relative_to(project)):
                break  # test code of this folder: its strategies are the tests' own
            for candidate in self._listing(project):
                if str(candidate) == analysed or is_test_code(candidate.relative_to(project)):
                    continue  # the file's own strategies are in its own analysis
                relative = candidate.relative_to(project).as_posix()
                created.extend(ProjectStrategy(relative, line, name) for name, line in self._created_in(candidate))
        return tuple(dict.fromkeys(created))

    def _listing(self, project: Path) -> list[Path]:
        from tfscope import files  # the folder walk of `tfscope check`

        key = str(project)
        with self._lock:
            cached = self._listings.get(key)
        if cached is not None and time.monotonic() - cached[0] < LISTING_SECONDS:
            return cached[1]
        settings = Settings(root=key)
        found = files.discover([project], lambda _folder: settings).files
        listing = found if len(found) <= MAX_FILES else []
        with self._lock:
            self._listings[key] = (time.monotonic(), listing)
        return listing

    def _created_in(self, path: Path) -> tuple[tuple[str, int], ...]:
        try:
            status = path.stat()
        except OSError:
            return ()
        key = (str(path), status.st_mtime_ns, status.st_size)
        with self._lock:
            if key in self._found_in:
                return self._found_in[key]
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        found = tuple((match["name"], text.count("\n", 0, match.start("name")) + 1) for match in _CREATION.finditer(text))
        with self._lock:
            self._found_in[key] = found
        return found


def is_test_code(path: Path) -> bool:
    """A test module, or a helper of tests (`tests/models/bert.py`, `test_utils.py`)."""
    stem = path.stem
    return (any(part in _TEST_FOLDERS for part in path.parent.parts) or stem.startswith("test")
            or stem.endswith(("_test", "_tests")) or "test_util" in stem or "testing_util" in stem)


def project_folders(path: str | None, root: str | None) -> list[Path]:
    """Where to look, nearest first: the folder with the nearest project marker, then the
    repository around it (the code that uses a library package often sits beside it, in
    `use-cases/` or `examples/`); never above the settings root."""
    if not path:
        return []
    folder = Path(os.path.abspath(path)).parent
    limit = Path(os.path.abspath(root)) if root else None
    found: list[Path] = []
    for candidate in (folder, *folder.parents):
        repository = (candidate / ".git").exists()
        if repository or (not found and any((candidate / marker).exists() for marker in PROJECT_MARKERS)):
            found.append(candidate)
        if repository or candidate == limit:
            return found or [candidate]
    return found


_scan = _ProjectScan()
strategies_created = _scan.strategies_created
