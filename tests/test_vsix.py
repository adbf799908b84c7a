"""The packaged VS Code extension (`npm run package`): what the .vsix holds, and that the server
inside it starts from the bundle alone, ahead of whatever the user's environment has installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from e2e.vscode.vsix import REPO, packaging_tools_missing, vsix_path

SETTINGS = (
    "enable", "select", "ignore", "severity", "kerasVersion", "extendSelect", "exclude", "perFileIgnores",
    "configuration", "configurationPreference", "showNotifications", "inlayHints", "codeLens", "path", "interpreter", "importStrategy", "logLevel", "trace.server",
)
COMMANDS = {
    "tfscope.restart": "Restart Server", "tfscope.fixAll": "Fix All", "tfscope.showLogs": "Show Logs",
    "tfscope.showServerInfo": "Show Server Info",
}
TEST_FILE = re.compile(r"(^|/)(conftest\.py|test_[^/]*\.py|[^/]*_test\.py)$")


SYSTEM_PYTHON = Path("/usr/bin/python3")  # a distribution's Python: no `packaging`, an old pip


def _clean_clone(destination: Path) -> Path:
    """The repository's tracked files as they are in the work tree: no .venv, node_modules,
    bundled/ or dist/ (a fresh `git clone` of the committed tree, plus uncommitted edits)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = REPO / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination


@pytest.fixture(scope="module")
def vsix(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """`npm ci && npm run package` as the README says, on a clean clone, with the system Python
    first on PATH (no project venv, no scripts/bootstrap)."""
    missing = packaging_tools_missing()
    if missing:
        pytest.fail(missing)
    clone = _clean_clone(tmp_path_factory.mktemp("clone"))
    tools = tmp_path_factory.mktemp("system-python")
    python = SYSTEM_PYTHON if SYSTEM_PYTHON.exists() else Path(shutil.which("python3"))
    (tools / "python3").symlink_to(python)
    env = {key: value for key, value in os.environ.items() if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHON")}
    env["PATH"] = f"{tools}{os.pathsep}{env.get('PATH', '')}"
    for command in (["npm", "ci", "--no-audit", "--no-fund", "--silent"], ["npm", "run", "package"]):
        done = subprocess.run(command, cwd=clone, env=env, capture_output=True, text=True, timeout=900)
        assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    built = clone / vsix_path().name
    with zipfile.ZipFile(built) as archive:
        yield archive


def test_holds_license_changelog_and_icon(vsix):
    members = names(vsix)
    assert "extension/LICENSE.txt" in members or "extension/LICENSE" in members
    assert "MIT License" in vsix.read(next(name for name in members if name.startswith("extension/LICENSE"))).decode()
    assert "extension/changelog.md" in members  # vsce's name for CHANGELOG.md
    version = json.loads((REPO / "package.json").read_text())["version"]
    assert f"## {version}" in vsix.read("extension/changelog.md").decode()
    manifest = json.loads(vsix.read("extension/package.json"))
    icon = vsix.read(f"extension/{manifest['icon']}")
    assert icon.startswith(b"\x89PNG\r\n\x1a\n")
    assert manifest["license"] == "MIT" and manifest["keywords"]


@pytest.fixture(scope="module")
def extracted(vsix: zipfile.ZipFile, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("vsix")
    vsix.extractall(root)
    return root / "extension"


def names(vsix: zipfile.ZipFile) -> set[str]:
    return set(vsix.namelist())


def test_holds_the_bundled_extension_code_and_the_server_launcher(vsix):
    members = names(vsix)
    assert "extension/dist/extension.js" in members
    assert "extension/vscode-client/python/launch_server.py" in members
    # esbuild bundled vscode-languageclient: no node_modules, no TypeScript sources, no source maps
    assert not [name for name in members if "node_modules/" in name or name.endswith((".ts", ".map"))]
    bundle = vsix.read("extension/dist/extension.js").decode()
    assert "tfscope.applyFixAll" in bundle and "launch_server.py" in bundle


def test_holds_the_server_package_as_in_the_repository(vsix):
    members = names(vsix)
    tracked = subprocess.run(["git", "ls-files", "server/tfscope"], cwd=REPO, capture_output=True, text=True, check=True)
    package_files = {name.removeprefix("server/") for name in tracked.stdout.split() if name.endswith(".py")}
    bundled = {name.removeprefix("extension/bundled/tool/") for name in members if name.startswith("extension/bundled/tool/")}
    assert package_files <= bundled
    assert not [name for name in bundled if name.endswith(".pyc")]


def test_holds_every_library_pyproject_requires_at_an_allowed_version(vsix):
    metadata_files = [name for name in names(vsix) if re.fullmatch(r"extension/bundled/libs/[^/]+\.dist-info/METADATA", name)]
    versions = {}
    for name in metadata_files:
        headers = vsix.read(name).decode()
        dist_name = re.search(r"^Name: (.+)$", headers, re.M).group(1).strip().lower().replace("_", "-")
        versions[dist_name] = re.search(r"^Version: (.+)$", headers, re.M).group(1).strip()
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    oldest_python = re.search(r"\d+\.\d+", project["requires-python"]).group()
    for line in project["dependencies"]:
        requirement = Requirement(line)
        if requirement.marker and not requirement.marker.evaluate({"python_version": oldest_python}):
            continue
        name = requirement.name.lower().replace("_", "-")
        assert name in versions, f"{name} is not bundled"
        assert requirement.specifier.contains(versions[name]), f"{name} {versions[name]} does not satisfy {line}"
    # a backport cattrs needs on the oldest supported Python (3.10), which a pip on 3.11 skips
    assert "exceptiongroup" in versions


def test_holds_only_what_the_server_uses(vsix):
    members = names(vsix)
    assert not [name for name in members if "/typeshed/stubs/" in name or "/django-stubs/" in name]
    assert "extension/bundled/libs/jedi/third_party/typeshed/stdlib/builtins.pyi" in members
    assert len(members) < 1500  # 5,899 with jedi's third-party stubs


def test_holds_no_test_files(vsix):
    offenders = [name for name in names(vsix) if name.startswith("extension/tests/") or TEST_FILE.search(name)]
    assert offenders == []


def test_manifest_contributes_settings_commands_and_limited_trust(vsix):
    manifest = json.loads(vsix.read("extension/package.json"))
    assert manifest["main"] == "./dist/extension.js"
    properties = manifest["contributes"]["configuration"]["properties"]
    for setting in SETTINGS:
        contributed = properties[f"tfscope.{setting}"]
        assert "default" in contributed and (contributed.get("description") or contributed.get("markdownDescription"))
    titles = {command["command"]: command["title"] for command in manifest["contributes"]["commands"]}
    assert titles == COMMANDS
    trust = manifest["capabilities"]["untrustedWorkspaces"]
    assert trust["supported"] == "limited"
    assert set(trust["restrictedConfigurations"]) == {"tfscope.interpreter", "tfscope.importStrategy", "tfscope.path", "tfscope.args"}
    assert all(properties[key].get("restricted") for key in trust["restrictedConfigurations"])


def test_launcher_refuses_pythons_older_than_pyproject_allows(vsix):
    launcher = vsix.read("extension/vscode-client/python/launch_server.py").decode()
    oldest = re.search(r"OLDEST_PYTHON = \((\d+), (\d+)\)", launcher).groups()
    requires = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["requires-python"]
    assert requires == f">={oldest[0]}.{oldest[1]}"


def _initialize(launcher: Path, env: dict[str, str], cwd: Path) -> dict:
    """Starts the launcher as VS Code does and returns its answer to `initialize`."""
    request = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    exit_notification = json.dumps({"jsonrpc": "2.0", "method": "exit"})
    stdin = "".join(f"Content-Length: {len(body.encode())}\r\n\r\n{body}" for body in (request, exit_notification))
    done = subprocess.run([sys.executable, str(launcher)], input=stdin.encode(), capture_output=True, env=env, cwd=cwd, timeout=60)
    headers, _, rest = done.stdout.partition(b"\r\n\r\n")
    length = re.search(rb"Content-Length: *(\d+)", headers)
    assert length, done.stderr.decode()
    return json.loads(rest[: int(length.group(1))])


@pytest.fixture
def broken_environment(tmp_path: Path) -> Path:
    """A user environment whose pygls and tfscope cannot even be imported."""
    site = tmp_path / "site"
    for package in ("pygls", "tfscope"):
        (site / package).mkdir(parents=True)
        (site / package / "__init__.py").write_text(f"raise ImportError('the environment {package} was imported')\n")
    return site


def test_bundled_server_starts_ahead_of_a_broken_environment(extracted, broken_environment, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(broken_environment), "TFSCOPE_IMPORT_STRATEGY": "useBundled"}
    answer = _initialize(extracted / "vscode-client" / "python" / "launch_server.py", env, cwd=tmp_path)
    assert answer["id"] == 1
    assert answer["result"]["serverInfo"]["name"] == "tfscope"


def test_from_environment_prefers_the_environment(extracted, broken_environment, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(broken_environment), "TFSCOPE_IMPORT_STRATEGY": "fromEnvironment"}
    done = subprocess.run(
        [sys.executable, str(extracted / "vscode-client" / "python" / "launch_server.py")],
        input=b"", capture_output=True, env=env, cwd=tmp_path, timeout=60,
    )
    assert done.returncode != 0
    assert "the environment tfscope was imported" in done.stderr.decode()


def test_bundled_jedi_still_follows_project_modules_and_builtins(extracted, tmp_path):
    (tmp_path / "models.py").write_text("def build_model():\n    return 1\n")
    probe = (
        "import jedi, sys\n"
        "project = jedi.Project(sys.argv[1])\n"
        "script = jedi.Script('from models import build_model\\nbuild_model\\nlen', path=sys.argv[1] + '/train.py', project=project)\n"
        "print(script.goto(2, 3, follow_imports=True)[0].module_path, script.infer(3, 1)[0].name)\n"
    )
    libs = extracted / "bundled" / "libs"
    done = subprocess.run(
        [sys.executable, "-I", "-c", f"import sys; sys.path.insert(0, {str(libs)!r}); exec({probe!r})", str(tmp_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(tmp_path / "models.py"), "len"]
