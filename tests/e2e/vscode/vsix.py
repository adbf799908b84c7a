"""The packaged extension, built by `scripts/package-vsix` when anything that goes into it changed."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
# everything scripts/package-vsix reads: a change to any of them makes the .vsix stale
PACKAGE_INPUTS = (
    "server/tfscope",
    "vscode-client",
    "package.json",
    "package-lock.json",
    "pyproject.toml",
    ".vscodeignore",
    "docs/vscode.md",
    "scripts/package-vsix",
)


def vsix_path() -> Path:
    version = json.loads((REPO / "package.json").read_text())["version"]
    return REPO / f"tfscope-{version}.vsix"


def _newest_input_mtime() -> float:
    newest = 0.0
    for name in PACKAGE_INPUTS:
        root = REPO / name
        files = [root] if root.is_file() else (path for path in root.rglob("*") if path.is_file())
        for path in files:
            if "__pycache__" not in path.parts:
                newest = max(newest, path.stat().st_mtime)
    return newest


def packaging_tools_missing() -> str | None:
    """Why the .vsix cannot be built here, or None."""
    for tool in ("node", "npm"):
        if shutil.which(tool) is None:
            return f"`{tool}` is not on PATH (scripts/setup-vscode-e2e installs what the .vsix build needs)"
    return None


def packaged_vsix() -> Path:
    """The up-to-date .vsix at the repository root, packaging it first when it is stale."""
    vsix = vsix_path()
    if not vsix.exists() or vsix.stat().st_mtime < _newest_input_mtime():
        subprocess.run([str(REPO / "scripts" / "package-vsix")], cwd=REPO, check=True)
    return vsix
