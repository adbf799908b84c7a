"""Starts `python -m tfscope serve [ARGS]` with the extension's bundled server and libraries on sys.path
(ARGS: the `tfscope.args` setting).

Run as a script (never with -m) so that sys.path[0] is this directory, not the workspace:
an opened repository cannot shadow tfscope or pygls with its own modules.
"""

from __future__ import annotations

import os
import runpy
import sys

OLDEST_PYTHON = (3, 10)  # pyproject.toml's requires-python; bundled/libs is built for it
EXTENSION_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUNDLED_PATHS = [
    os.path.join(EXTENSION_ROOT, "bundled", "tool"),
    os.path.join(EXTENSION_ROOT, "bundled", "libs"),
]


def main() -> None:
    if sys.version_info < OLDEST_PYTHON:
        wanted = ".".join(map(str, OLDEST_PYTHON))
        sys.exit(f"tfscope needs Python {wanted} or newer, but {sys.executable} is {sys.version.split()[0]}: set tfscope.interpreter")
    import_strategy = os.environ.get("TFSCOPE_IMPORT_STRATEGY", "useBundled")
    if import_strategy == "fromEnvironment":
        # the environment's tfscope and libraries win; the bundle only fills in what is missing
        sys.path.extend(BUNDLED_PATHS)
    else:
        sys.path[0:0] = BUNDLED_PATHS
    sys.argv = [sys.argv[0], "serve", *sys.argv[1:]]  # tfscope.args follow `serve`
    runpy.run_module("tfscope", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
