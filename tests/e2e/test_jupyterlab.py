"""Real JupyterLab with jupyterlab-lsp (from PyPI), driven from headless Chromium by Playwright:
installing tfscope next to JupyterLab is all it takes for jupyter-lsp to start `tfscope serve`
(its spec entry point) beside another Python server (pylsp); with the priority and
serverSettings docs/editors.md gives, the finding lands on the cell and line creating the model,
moves with an edit, and goes away when the cell is fixed.

JupyterLab lives in a venv scripts/setup-jupyter-e2e caches (with tfscope's dependencies but not
tfscope); this test installs the checkout into a temporary folder put on that Python's path, as
`pip install tfscope` would. The browser is the one scripts/setup-vscode-e2e installs.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

import pytest

from .conftest import require

REPO = Path(__file__).resolve().parents[2]
DRIVER = Path(__file__).parent / "jupyter" / "drive.mjs"
E2E_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tfscope-e2e"
TOOLCHAIN = E2E_CACHE / "jupyter-e2e.json"
BROWSER_TOOLCHAIN = E2E_CACHE / "vscode-e2e.json"
DRIVER_TIMEOUT_SECONDS = 300
START_TIMEOUT_SECONDS = 90

SCOPE_CELL = "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()"
CREATING_CALL = "tf.keras.Sequential([tf.keras.layers.Dense(1)])"
MODEL_CELL_TEXT = f"modèle = {CREATING_CALL}  # 🚀"
CELLS = [
    ("markdown", "# Training"),
    ("code", SCOPE_CELL),
    ("code", "%matplotlib inline\n!nvidia-smi\n" + MODEL_CELL_TEXT),
    ("code", 'with strategy.scope():\n    modèle.compile(optimizer="adam", loss="mse")'),
]
MODEL_CELL = 2  # index among all cells, as JupyterLab counts them
MODEL_LINE = 3  # 1-based, inside the cell: after a line magic and a shell command
# what a flagged range may cover: the name, the creating call, or the whole statement
FLAGGED_TEXTS = {"modèle", CREATING_CALL, f"modèle = {CREATING_CALL}"}
# the user settings docs/editors.md gives: tfscope over pylsp for notebooks, TFS001 as an error
LSP_SETTINGS = {"language_servers": {"tfscope": {"priority": 100, "serverSettings": {"tfscope.severity": {"TFS001": "error"}}}}}
LSP_SETTINGS_FILE = Path("@jupyter-lsp", "jupyterlab-lsp", "plugin.jupyterlab-settings")
EDITS = [
    # still wrong, one line lower: the marker must follow
    {"cell": MODEL_CELL, "text": "# the model\n%matplotlib inline\n!nvidia-smi\n" + MODEL_CELL_TEXT, "expect": "marker"},
    # fixed: built under the scope
    {"cell": MODEL_CELL, "text": "with strategy.scope():\n    " + MODEL_CELL_TEXT, "expect": "none"},
]


def notebook_json(cells: list[tuple[str, str]]) -> str:
    def cell(kind: str, source: str) -> dict:
        lines = source.splitlines(keepends=True)
        if kind == "markdown":
            return {"cell_type": "markdown", "metadata": {}, "source": lines}
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}

    return json.dumps(
        {
            "cells": [cell(kind, source) for kind, source in cells],
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
    require(TOOLCHAIN.is_file(), f"{TOOLCHAIN} is missing: run scripts/setup-jupyter-e2e")
    require(BROWSER_TOOLCHAIN.is_file(), f"{BROWSER_TOOLCHAIN} is missing: run scripts/setup-jupyter-e2e")
    toolchain = {**json.loads(BROWSER_TOOLCHAIN.read_text()), **json.loads(TOOLCHAIN.read_text())}
    for key in ("python", "node", "chromium"):
        require(Path(toolchain[key]).is_file(), f"{key} not found at {toolchain[key]}: run scripts/setup-jupyter-e2e")
    require((Path(toolchain["nodeModules"]) / "playwright-core").is_dir(), "playwright-core missing: run scripts/setup-jupyter-e2e")
    return toolchain


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def install_checkout(python: str, target: Path) -> None:
    """tfscope from this checkout, as a user's `pip install` would put it (entry points included)."""
    subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target", str(target), str(REPO)],
        check=True, capture_output=True, timeout=300,
    )


def lsp_status(url: str) -> dict:
    with urllib.request.urlopen(f"{url}/lsp/status", timeout=5) as response:
        return json.load(response)


def wait_until_serving(url: str, process: subprocess.Popen, log: Path) -> dict:
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"JupyterLab exited with {process.returncode}:\n{log.read_text()}")
        with contextlib.suppress(OSError, ValueError):
            return lsp_status(url)
        time.sleep(0.3)
    pytest.fail(f"JupyterLab did not answer on {url}:\n{log.read_text()}")


@contextlib.contextmanager
def running_jupyterlab(home: Path, workspace: Path, toolchain: dict):
    """JupyterLab on a free loopback port with token auth off (this test only), its own config,
    data and settings folders (LSP_SETTINGS in them), tfscope from this checkout on its Python's path."""
    site = home / "site-packages"
    install_checkout(toolchain["python"], site)
    env = {
        **os.environ,
        "PYTHONPATH": str(site),
        "JUPYTER_CONFIG_DIR": str(home / "config"),
        "JUPYTER_DATA_DIR": str(home / "data"),
        "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
        "JUPYTERLAB_SETTINGS_DIR": str(home / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(home / "workspaces"),
        "IPYTHONDIR": str(home / "ipython"),
    }
    settings_file = home / "settings" / LSP_SETTINGS_FILE
    settings_file.parent.mkdir(parents=True)
    settings_file.write_text(json.dumps(LSP_SETTINGS))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = home / "jupyterlab.log"
    command = [
        toolchain["python"], "-m", "jupyter", "lab", "--no-browser", "--allow-root",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        "--IdentityProvider.token=", f"--ServerApp.root_dir={workspace}",
        "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    with log.open("w") as log_file:
        process = subprocess.Popen(command, stdout=log_file, stderr=subprocess.STDOUT, cwd=home, env=env)
    try:
        status = wait_until_serving(url, process, log)
        yield {"url": url, "log": log, "status": status}
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


def drive(toolchain: dict, lab: dict, workspace: Path, notebook: str, screenshot_dir: Path) -> dict:
    result = workspace.parent / "jupyterlab-result.json"
    scenario = {
        "nodeModules": toolchain["nodeModules"],
        "chromium": toolchain["chromium"],
        "url": f"{lab['url']}/lab/tree/{notebook}",
        "result": str(result),
        "screenshotDir": str(screenshot_dir),
        "edits": EDITS,
    }
    scenario_file = workspace.parent / "jupyterlab-scenario.json"
    scenario_file.write_text(json.dumps(scenario))
    done = subprocess.run(
        [toolchain["node"], str(DRIVER), str(scenario_file)], capture_output=True, text=True, timeout=DRIVER_TIMEOUT_SECONDS
    )
    observed = json.loads(result.read_text()) if result.exists() else {}
    if done.returncode != 0:
        print(f"\nscreenshot of the failure: {observed.get('screenshot', '(none taken)')}")
        print(f"JupyterLab log: {lab['log']}")
        pytest.fail(f"driver failed after steps {observed.get('steps')}:\n{observed.get('error') or done.stderr}\n{done.stdout}")
    return observed


def marked_lines(markers: list[dict]) -> dict[tuple[int, int], str]:
    """(cell, line) -> the marked text there (a mark may be split around highlighted tokens)."""
    lines: dict[tuple[int, int], str] = {}
    for marker in markers:
        key = (marker["cell"], marker["line"])
        lines[key] = lines.get(key, "") + marker["text"]
    return lines


def test_finding_lands_on_the_model_cell_follows_edits_and_clears_when_fixed(tmp_path):
    toolchain = load_toolchain()
    workspace = tmp_path / "project"
    workspace.mkdir()
    (workspace / "train.ipynb").write_text(notebook_json(CELLS))
    home = tmp_path / "jupyter-home"
    home.mkdir()
    screenshot_dir = Path(tempfile.mkdtemp(prefix="tfscope-jupyterlab-screenshots-"))

    with running_jupyterlab(home, workspace, toolchain) as lab:
        # the spec came from tfscope's entry point, nothing configured, beside pylsp's
        specs = lab["status"]["specs"]
        assert specs["tfscope"]["languages"] == specs["pylsp"]["languages"] == ["python"]
        assert specs["tfscope"]["requires_documents_on_disk"] is False
        observed = drive(toolchain, lab, workspace, "train.ipynb", screenshot_dir)

    before = marked_lines(observed["markersBefore"])
    assert list(before) == [(MODEL_CELL, MODEL_LINE)], observed["markersBefore"]
    assert before[(MODEL_CELL, MODEL_LINE)] in FLAGGED_TEXTS
    # serverSettings reached the server: TFS001 re-graded from warning to error
    assert all("cm-lintRange-error" in marker["classes"] for marker in observed["markersBefore"])

    moved, fixed = observed["afterEdits"]
    assert moved["cellText"] == EDITS[0]["text"]
    assert [item["code"] for item in moved["published"]] == ["TFS001"]
    assert list(marked_lines(moved["markers"])) == [(MODEL_CELL, MODEL_LINE + 1)], moved["markers"]

    assert fixed["cellText"] == EDITS[1]["text"]
    assert fixed["published"] == []  # the server's answer for the fixed text, not the editor's guess
    assert fixed["markers"] == []
    # one server per language and notebook in jupyterlab-lsp: the higher priority one
    assert observed["lspStatus"]["tfscope"] == "started"
    assert observed["lspStatus"]["pylsp"] == "not_started"
    # no shadow copies: the server reads the text from the client
    assert not (workspace / ".virtual_documents").exists()
