"""Real VS Code (code-server in Chromium, driven by Playwright) with the packaged .vsix installed:
the TFS001 marker appears, its quick fix moves the model into the scope, the marker goes away;
in a notebook the marker lands on the cell that creates the model; the placement inlay hints
show in the editor and the scope block's code lens lists its objects.

Everything it drives is installed by scripts/setup-vscode-e2e (which writes vscode-e2e.json in
the cache); the .vsix is packaged here when it is older than its sources. The extension finds
`python3` on PATH by itself and runs the server from its bundled libraries.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import require
from .vscode.vsix import REPO, packaged_vsix, packaging_tools_missing

DRIVER = Path(__file__).parent / "vscode" / "drive.mjs"
# answers the Python extension's environments API with the folder's tools/python-wrapper
PYTHON_EXTENSION_STAND_IN = Path(__file__).parent / "vscode" / "python-extension-stand-in"
PYTHON_EXTENSION_ID = "ms-python.python"
E2E_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tfscope-e2e"
TOOLCHAIN = E2E_CACHE / "vscode-e2e.json"
EXTENSION_ID = "tfscope.tfscope"
DRIVER_TIMEOUT_SECONDS = 300
MOVE_INTO_SCOPE = "Move into `with strategy.scope():`"

# a workbench that does nothing on its own: no trust prompt, welcome page, chat, auto save
USER_SETTINGS = {
    "security.workspace.trust.enabled": False,
    "workbench.startupEditor": "none",
    "workbench.tips.enabled": False,
    "workbench.welcomePage.walkthroughs.openOnInstall": False,
    "chat.disableAIFeatures": True,
    "problems.autoReveal": False,
    "notebook.lineNumbers": "on",
    "editor.hover.enabled": "off",
    "files.autoSave": "off",
    "editor.formatOnSave": False,
    "editor.codeActionsOnSave": {},
    "notebook.codeActionsOnSave": {},
    "search.useIgnoreFiles": False,
    "extensions.ignoreRecommendations": True,
    "telemetry.telemetryLevel": "off",
    "update.mode": "none",
}

RESTRICTED_USER_SETTINGS = {
    **USER_SETTINGS,
    "security.workspace.trust.enabled": True,
    "security.workspace.trust.startupPrompt": "never",
    "security.workspace.trust.banner": "never",
    "security.workspace.trust.untrustedFiles": "open",
}

TRAINING_SCRIPT = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.layers.Dense(1)])

with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
model.fit(tf.zeros((8, 4)), tf.zeros((8, 1)), epochs=1)
"""
FIXED_SCRIPT = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()

with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="adam", loss="mse")
model.fit(tf.zeros((8, 4)), tf.zeros((8, 1)), epochs=1)
"""
MODEL_LINE = 4  # 1-based line of the model creation in TRAINING_SCRIPT

NOTEBOOK_CELLS = [
    "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()",
    "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])",
    'with strategy.scope():\n    model.compile(optimizer="adam", loss="mse")',
]
MODEL_CELL = 1  # 0-based index of the cell creating the model
FIXED_NOTEBOOK_CELLS = [
    NOTEBOOK_CELLS[0],
    "",
    'with strategy.scope():\n    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n    model.compile(optimizer="adam", loss="mse")',
]


def notebook_json(cells: list[str]) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": source.splitlines(keepends=True)}
                for source in cells
            ],
            "metadata": {
                "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                "language_info": {"name": "python"},
            },
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    )


def load_toolchain() -> dict:
    require(TOOLCHAIN.is_file(), f"{TOOLCHAIN} is missing: run scripts/setup-vscode-e2e")
    toolchain = json.loads(TOOLCHAIN.read_text())
    for key in ("node", "codeServer", "chromium"):
        require(Path(toolchain[key]).is_file(), f"{key} not found at {toolchain[key]}: run scripts/setup-vscode-e2e")
    require((Path(toolchain["nodeModules"]) / "playwright-core").is_dir(), "playwright-core missing: run scripts/setup-vscode-e2e")
    missing = packaging_tools_missing()
    require(missing is None, missing or "")
    require(shutil.which("python3") is not None, "the extension needs python3 on PATH")
    return toolchain


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"code-server exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.3)
    pytest.fail(f"code-server did not answer on {url}:\n{log.read_text()}")


def package_python_extension_stand_in(home: Path) -> Path:
    """The stand-in for ms-python.python (the Marketplace is unreachable here), as a .vsix."""
    vsix = home / "python-extension-stand-in.vsix"
    vsce = REPO / "node_modules" / "@vscode" / "vsce" / "vsce"
    subprocess.run(
        ["node", str(vsce), "package", "--skip-license", "--allow-missing-repository", "--allow-package-all-secrets", "--out", str(vsix)],
        cwd=PYTHON_EXTENSION_STAND_IN, check=True, capture_output=True, timeout=120,
    )
    return vsix


@contextlib.contextmanager
def running_code_server(home: Path, user_settings: dict):
    """code-server on a free loopback port, fresh user data, the packaged .vsix installed."""
    toolchain = load_toolchain()
    vsix = packaged_vsix()
    user_data, extensions = home / "user-data", home / "extensions"
    (user_data / "User").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(json.dumps(user_settings, indent=2))
    stand_in = package_python_extension_stand_in(home)
    base_command = [toolchain["node"], toolchain["codeServer"], "--user-data-dir", str(user_data), "--extensions-dir", str(extensions)]
    for package in (vsix, stand_in):
        installed = subprocess.run([*base_command, "--install-extension", str(package)], capture_output=True, text=True, timeout=180)
        assert installed.returncode == 0, installed.stdout + installed.stderr
    listed = subprocess.run([*base_command, "--list-extensions"], capture_output=True, text=True, timeout=120)
    assert {EXTENSION_ID, PYTHON_EXTENSION_ID} <= set(listed.stdout.split()), listed.stdout + listed.stderr

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = home / "code-server.log"
    with log.open("w") as log_file:
        process = subprocess.Popen(
            [*base_command, "--auth", "none", "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry", "--disable-update-check"],
            stdout=log_file, stderr=subprocess.STDOUT, cwd=home,
        )
    try:
        wait_until_serving(url, process, log)
        yield {"url": url, "toolchain": toolchain, "log": log}
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def code_server(tmp_path_factory: pytest.TempPathFactory):
    """Workspace trust off: every folder is trusted."""
    with running_code_server(tmp_path_factory.mktemp("code-server"), USER_SETTINGS) as server:
        yield server


@pytest.fixture(scope="module")
def restricted_code_server(tmp_path_factory: pytest.TempPathFactory):
    """Workspace trust on, no prompt: a folder nobody trusted opens in Restricted Mode."""
    with running_code_server(tmp_path_factory.mktemp("code-server-restricted"), RESTRICTED_USER_SETTINGS) as server:
        yield server


@pytest.fixture(scope="module")
def screenshot_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="tfscope-vscode-screenshots-"))


def drive(code_server: dict, screenshot_dir: Path, workspace: Path, relative_file: str, kind: str, **extra) -> dict:
    """Runs the Playwright driver on one scenario; fails with its error and screenshot path."""
    result = workspace.parent / f"{kind}-result.json"
    scenario = {
        "nodeModules": code_server["toolchain"]["nodeModules"],
        "chromium": code_server["toolchain"]["chromium"],
        "url": f"{code_server['url']}/?folder={workspace}",
        "file": relative_file,
        "path": str(workspace / relative_file),
        "kind": kind,
        "result": str(result),
        "screenshotDir": str(screenshot_dir),
        **extra,
    }
    scenario_file = workspace.parent / f"{kind}-scenario.json"
    scenario_file.write_text(json.dumps(scenario))
    done = subprocess.run(
        [code_server["toolchain"]["node"], str(DRIVER), str(scenario_file)],
        capture_output=True, text=True, timeout=DRIVER_TIMEOUT_SECONDS,
    )
    observed = json.loads(result.read_text()) if result.exists() else {}
    if done.returncode != 0:
        print(f"\nscreenshot of the failure: {observed.get('screenshot', '(none taken)')}")
        print(f"code-server log: {code_server['log']}")
        pytest.fail(f"driver failed after steps {observed.get('steps')}:\n{observed.get('error') or done.stderr}\n{done.stdout}")
    return observed


def tfscope_notifications(observed: dict) -> list[str]:
    """Toasts the server or extension raised: a working setup shows none (e.g. no settings warning)."""
    return [text for text in observed["notifications"] if "tfscope" in text.lower()]


def tfs_codes(rows: list[dict]) -> list[str]:
    return [row["code"] for row in rows if row["code"].startswith("TFS")]


def test_quick_fix_moves_the_model_into_the_scope(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "project"
    workspace.mkdir()
    script = workspace / "train.py"
    script.write_text(TRAINING_SCRIPT)

    observed = drive(code_server, screenshot_dir, workspace, "train.py", "quickFix", fixTitle=MOVE_INTO_SCOPE)

    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert observed["problemsBefore"][0]["line"].startswith(f"[Ln {MODEL_LINE}, ")
    assert MOVE_INTO_SCOPE in observed["quickFixTitles"]
    assert observed["chosenFix"] == MOVE_INTO_SCOPE
    assert script.read_text() == FIXED_SCRIPT
    assert tfs_codes(observed["problemsAfter"]) == []
    assert tfscope_notifications(observed) == []


def test_fix_all_and_show_logs_commands(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "commands"
    workspace.mkdir()
    script = workspace / "train.py"
    script.write_text(TRAINING_SCRIPT)

    observed = drive(code_server, screenshot_dir, workspace, "train.py", "commands")

    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert script.read_text() == FIXED_SCRIPT
    # the extension logs which interpreter it chose: here python3 from PATH, nothing configured
    assert f"interpreter: {shutil.which('python3')} (from PATH)" in observed["logText"]
    assert tfscope_notifications(observed) == []


def test_changed_settings_reach_the_server(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "settings"
    workspace.mkdir()
    (workspace / "train.py").write_text(TRAINING_SCRIPT)

    observed = drive(
        code_server, screenshot_dir, workspace, "train.py", "settingsChange",
        settingsFile=str(workspace / ".vscode" / "settings.json"),
        newSettings={"tfscope.severity": {"TFS001": "info"}},
        expectedSquiggle="squiggly-info",
    )

    assert "squiggly-info" not in observed["squiggleClass"]
    assert "squiggly-info" in observed["squiggleClassAfter"]


def test_run_on_save_checks_the_saved_text_not_each_edit_and_args_reach_the_server(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "on-save"
    (workspace / ".vscode").mkdir(parents=True)
    settings = {"tfscope.run": "onSave", "tfscope.args": ["--log-file", "${workspaceFolder}/server.log"]}
    (workspace / ".vscode" / "settings.json").write_text(json.dumps(settings))
    script = workspace / "train.py"
    script.write_text(TRAINING_SCRIPT)

    # an on-type check answers an edit within a second here; the unsaved edit gets five
    observed = drive(code_server, screenshot_dir, workspace, "train.py", "runOnSave", line=MODEL_LINE, settleMs=5000)

    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert tfs_codes(observed["problemsWhileUnsaved"]) == ["TFS001"], "an unsaved edit was checked"
    assert script.read_text() == TRAINING_SCRIPT.replace("model = tf.keras", "# model = tf.keras")
    assert tfs_codes(observed["problemsAfter"]) == []
    assert tfscope_notifications(observed) == []
    assert "starting: pull diagnostics" in (workspace / "server.log").read_text(), "tfscope.args did not reach the server"


GLANCE_SCRIPT = TRAINING_SCRIPT.replace(
    "with strategy.scope():\n", "with strategy.scope():\n    optimizer = tf.keras.optimizers.Adam()\n"
)


def test_inlay_hints_and_code_lens_show_placement(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "glance"
    (workspace / ".vscode").mkdir(parents=True)
    (workspace / ".vscode" / "settings.json").write_text(json.dumps({"tfscope.codeLens": True}))
    (workspace / "train.py").write_text(GLANCE_SCRIPT)

    observed = drive(code_server, screenshot_dir, workspace, "train.py", "glance",
                     hintText="⟨strategy: MirroredStrategy⟩", lensText="creates 1 distributed object")

    rendered = observed["renderedText"]
    # each hint right after the expression creating the object (its padding is a CSS margin)
    assert "tf.keras.optimizers.Adam()⟨strategy: MirroredStrategy⟩" in rendered
    assert "tf.keras.Sequential([tf.keras.layers.Dense(1)])⟨no strategy⟩" in rendered
    assert rendered.count("⟨") == 2
    assert observed["lensTexts"] == ["creates 1 distributed object · 1 created outside is used here"]
    # the lens's command lists both objects in VS Code's references peek
    assert observed["peekRows"] == [
        "model = tf.keras.Sequential([tf.keras.layers.Dense(1)])", "optimizer = tf.keras.optimizers.Adam()"
    ]
    assert tfscope_notifications(observed) == []


def cell_sources(notebook: Path) -> list[str]:
    return ["".join(cell["source"]) for cell in json.loads(notebook.read_text())["cells"]]


def test_notebook_marker_is_on_the_cell_creating_the_model_and_its_fix_spans_cells(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "notebooks"
    workspace.mkdir()
    notebook = workspace / "train.ipynb"
    notebook.write_text(notebook_json(NOTEBOOK_CELLS))

    observed = drive(code_server, screenshot_dir, workspace, "train.ipynb", "notebook", fixTitle=MOVE_INTO_SCOPE)

    assert [cell["index"] for cell in observed["cellsWithMarkers"]] == [MODEL_CELL]
    assert "tf.keras.Sequential" in observed["cellsWithMarkers"][0]["text"].replace("\u00a0", " ")
    assert tfs_codes(observed["problems"]) == ["TFS001"]
    assert observed["chosenFix"] == MOVE_INTO_SCOPE
    assert cell_sources(notebook) == FIXED_NOTEBOOK_CELLS
    assert tfscope_notifications(observed) == []


def add_python_wrapper(workspace: Path) -> Path:
    """tools/python-wrapper: leaves a trace when run, then runs python3; returns the trace path.

    The Python extension stand-in reports it as the selected environment.
    """
    wrapper = workspace / "tools" / "python-wrapper"
    wrapper.parent.mkdir()
    trace = workspace / "tools" / "wrapper-ran"
    wrapper.write_text(f'#!/bin/sh\ntouch "{trace}"\nexec python3 "$@"\n')
    wrapper.chmod(0o755)
    return trace


def add_workspace_interpreter(workspace: Path) -> Path:
    """The wrapper, also named by the workspace's own tfscope.interpreter setting."""
    trace = add_python_wrapper(workspace)
    (workspace / ".vscode").mkdir()
    settings = {"tfscope.interpreter": "${workspaceFolder}/tools/python-wrapper"}
    (workspace / ".vscode" / "settings.json").write_text(json.dumps(settings))
    return trace


def test_trusted_workspace_runs_the_interpreter_its_settings_name(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "trusted"
    workspace.mkdir()
    (workspace / "train.py").write_text(TRAINING_SCRIPT)
    trace = add_workspace_interpreter(workspace)

    observed = drive(code_server, screenshot_dir, workspace, "train.py", "marker")

    assert not observed["restrictedMode"]
    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert trace.exists(), "the server did not run on the workspace's tfscope.interpreter"


def test_restricted_mode_never_runs_the_workspace_interpreter(restricted_code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "untrusted"
    workspace.mkdir()
    (workspace / "train.py").write_text(TRAINING_SCRIPT)
    trace = add_workspace_interpreter(workspace)

    observed = drive(restricted_code_server, screenshot_dir, workspace, "train.py", "marker")

    assert observed["restrictedMode"]
    # still checked, by python3 from PATH and the bundled server: neither the workspace setting
    # nor the Python extension's selection (it may be the repository's own venv) ran
    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert not trace.exists(), "Restricted Mode started an interpreter the workspace chose"


def test_python_extension_selected_environment_runs_the_server(code_server, screenshot_dir, tmp_path):
    workspace = tmp_path / "selected"
    workspace.mkdir()
    (workspace / "train.py").write_text(TRAINING_SCRIPT)
    trace = add_python_wrapper(workspace)

    observed = drive(code_server, screenshot_dir, workspace, "train.py", "marker")

    assert tfs_codes(observed["problemsBefore"]) == ["TFS001"]
    assert trace.exists(), "the server did not run on the Python extension's selected environment"
