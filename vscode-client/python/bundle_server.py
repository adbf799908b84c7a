"""Fills bundled/: the tfscope package (bundled/tool) and its pure-Python libraries (bundled/libs).

The libraries are the wheels pyproject.toml requires, chosen for the oldest Python the server
supports, so the .vsix runs on any interpreter from that version on.
Usage: python vscode-client/python/bundle_server.py  (from the repository root)
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from importlib.metadata import Distribution
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "bundled"
LIBS = BUNDLED / "libs"
TOOL = BUNDLED / "tool"
BUILD_LEFTOVERS = ("__pycache__", "*.pyc")
# jedi's stubs for third-party packages (4,800 of its 5,600 files): tfscope asks jedi only about
# the project's own modules, and jedi reads a package's sources when it has no stub for it. The
# standard library's stubs (typeshed/stdlib) stay: jedi needs them for builtins.
UNUSED_LIBRARY_PARTS = ("jedi/third_party/typeshed/stubs", "jedi/third_party/django-stubs")
# what this script itself needs; pip's private copy of packaging is too old (markers with `extra`)
BUILD_TOOLS = ("packaging>=22", "tomli>=2; python_version<'3.11'")


def _import_build_tools() -> None:
    """Make ``packaging`` (and ``tomli`` on 3.10) importable: a stock system Python may lack them.

    They go into a temporary folder, never into the interpreter's environment."""
    try:
        import packaging.requirements  # noqa: F401

        if sys.version_info < (3, 11):
            import tomli  # noqa: F401
        return
    except ImportError:
        pass
    tools = tempfile.mkdtemp(prefix="tfscope-bundle-tools-")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--target", tools, *BUILD_TOOLS],
        check=True,
    )
    sys.path.insert(0, tools)


_import_build_tools()

from packaging.requirements import Requirement  # noqa: E402

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib


def oldest_python(project: dict) -> str:
    return re.search(r"\d+\.\d+", project["requires-python"]).group()


def pip_install(requirements: list[str], python_version: str) -> None:
    subprocess.run(
        [
            sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
            "--no-compile", "--upgrade", "--target", str(LIBS), "--implementation", "py",
            "--python-version", python_version, "--only-binary=:all:", *requirements,
        ],
        check=True,
    )


def needed_on(requirement: Requirement, python_version: str) -> bool:
    """pip's --python-version picks wheels for that version but evaluates markers on the running one."""
    if requirement.marker is None:
        return True
    oldest = {"python_version": python_version, "python_full_version": f"{python_version}.0", "extra": ""}
    return requirement.marker.evaluate({"extra": ""}) or requirement.marker.evaluate(oldest)


def without_marker(requirement: Requirement) -> str:
    return f"{requirement.name}{requirement.specifier}"


def missing_for(python_version: str) -> list[str]:
    """Dependencies of the installed libraries that the oldest Python needs but pip skipped."""
    installed = {dist.metadata["Name"].lower().replace("_", "-") for dist in Distribution.discover(path=[str(LIBS)])}
    missing = set()
    for dist in Distribution.discover(path=[str(LIBS)]):
        for requirement in map(Requirement, dist.requires or ()):
            if requirement.name.lower().replace("_", "-") not in installed and needed_on(requirement, python_version):
                missing.add(without_marker(requirement))
    return sorted(missing)


def main() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    python_version = oldest_python(project)
    shutil.rmtree(BUNDLED, ignore_errors=True)
    LIBS.mkdir(parents=True)
    requirements = map(Requirement, project["dependencies"])
    pip_install([without_marker(r) for r in requirements if needed_on(r, python_version)], python_version)
    backports = missing_for(python_version)
    if backports:
        pip_install(backports, python_version)
    shutil.rmtree(LIBS / "bin", ignore_errors=True)
    for part in UNUSED_LIBRARY_PARTS:
        shutil.rmtree(LIBS / part, ignore_errors=True)
    shutil.copytree(ROOT / "server" / "tfscope", TOOL / "tfscope", ignore=shutil.ignore_patterns(*BUILD_LEFTOVERS))
    print(f"bundled tfscope and {len(list(LIBS.glob('*.dist-info')))} libraries for Python >= {python_version}")


if __name__ == "__main__":
    main()
