"""When a file last changed: the stamp caches keep beside what they read from it."""

from __future__ import annotations

import os


def modified(path: str) -> int | None:
    """The file's modification time in nanoseconds; None when it cannot be read."""
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return None
