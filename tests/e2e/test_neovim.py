"""Real Neovim, headless, against the real server: diagnostics appear, a quick fix applied
through Neovim's own code action menu fixes the file, and the diagnostic goes away; in 0.11 the
placement inlay hints and the scope block's code lens arrive and the lens fills the location list.

Two Neovims, two shipped configs: Debian's 0.7.2 with editors/nvim/tfscope-legacy.lua
(vim.lsp.start_client) and 0.11 from PyPI with editors/nvim/lsp/tfscope.lua (vim.lsp.enable).
Both are installed by scripts/setup-neovim-e2e.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import require

REPO = Path(__file__).resolve().parents[2]
DRIVER = REPO / "tests" / "e2e" / "nvim" / "quick_fix.lua"
GLANCE_DRIVER = REPO / "tests" / "e2e" / "nvim" / "glance.lua"
E2E_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "tfscope-e2e"
NVIM_TIMEOUT_SECONDS = 120

BUGGY_SCRIPT = """\
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
modèle = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # modèle à 1 unité 🚀
with strategy.scope():
    modèle.compile(optimizer="adam", loss="mse")
modèle.fit(np.zeros((8, 4)), np.zeros((8, 1)), epochs=2)
"""
# 0-based; non-ASCII before the flagged range: Neovim 0.7 talks UTF-16 columns, 0.11 UTF-8
FLAGGED_LINE = 4
# what a flagged range may cover: the name, the creating call, or the whole statement
CREATING_CALL = "tf.keras.Sequential([tf.keras.layers.Dense(1)])"
FLAGGED_TEXTS = {"modèle", CREATING_CALL, f"modèle = {CREATING_CALL}"}

FIXED_SCRIPT = """\
import numpy as np
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    modèle = tf.keras.Sequential([tf.keras.layers.Dense(1)])  # modèle à 1 unité 🚀
    modèle.compile(optimizer="adam", loss="mse")
modèle.fit(np.zeros((8, 4)), np.zeros((8, 1)), epochs=2)
"""
MOVE_INTO_SCOPE = "Move into `with strategy.scope():`"

# (nvim binary, version prefix it must report, how the driver sets tfscope up)
NEOVIMS = {
    "debian-0.7": (Path("/usr/bin/nvim"), "NVIM v0.7.", "legacy"),
    "pypi-0.11": (E2E_CACHE / "nvim-0.11.4" / "bin" / "nvim", "NVIM v0.11.", "enable"),
}


def nvim_version(binary: Path) -> str:
    if not binary.is_file():
        return ""
    return subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=30).stdout


def isolated_environment(home: Path) -> dict[str, str]:
    """Keep the user's Neovim config, state and LSP log out of the run (the log lands in home)."""
    environment = dict(os.environ)
    for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
        environment[variable] = str(home / variable.lower())
    return environment


def lsp_logs(home: Path) -> str:
    return "\n".join(f"--- {log}\n{log.read_text(errors='replace')[-6000:]}" for log in home.rglob("lsp.log"))


def run_driver(binary: Path, driver: Path, script: Path, environment: dict, result_path: Path,
               home: Path) -> tuple[dict, str]:
    """Run a headless driver on ``script`` (from its folder); its JSON result and, for failing
    assertions, what Neovim and the server logged."""
    completed = subprocess.run(
        [binary, "--headless", "--clean", "-n", "-i", "NONE", "-u", driver, script.name],
        cwd=script.parent, env=environment, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=NVIM_TIMEOUT_SECONDS,
    )
    context = f"nvim exit {completed.returncode}\nstderr:\n{completed.stderr[-3000:]}\n{lsp_logs(home)}"
    assert result_path.exists(), f"the driver wrote no result\n{context}"
    result = json.loads(result_path.read_text())
    return result, f"driver result: {json.dumps(result, indent=1)}\n{context}"


@pytest.mark.parametrize("neovim", NEOVIMS)
def test_quick_fix_in_neovim(neovim: str, tmp_path: Path) -> None:
    binary, version_prefix, setup_style = NEOVIMS[neovim]
    require(
        nvim_version(binary).startswith(version_prefix),
        f"{version_prefix.strip()}x not found at {binary}: run scripts/setup-neovim-e2e",
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "trainer"\nversion = "0.1.0"\n')
    script = project / "train.py"
    script.write_text(BUGGY_SCRIPT)
    result_path = tmp_path / "result.json"
    home = tmp_path / "nvim-home"
    environment = isolated_environment(home) | {
        "TFSCOPE_E2E_REPO": str(REPO),
        "TFSCOPE_E2E_SETUP": setup_style,
        "TFSCOPE_E2E_PYTHON": sys.executable,
        "TFSCOPE_E2E_RULE": "TFS001",
        "TFSCOPE_E2E_ACTION": MOVE_INTO_SCOPE,
        "TFSCOPE_E2E_RESULT": str(result_path),
    }

    result, context = run_driver(binary, DRIVER, project / script.name, environment, result_path, home)

    assert result["errors"] == [], context
    assert result["client"]["name"] == "tfscope", context
    assert result["client"]["root_dir"] == str(project), context
    flagged = [d for d in result["diagnostics_before"] if d["code"] == "TFS001"]
    assert [(d["lnum"], d["end_lnum"], d["source"]) for d in flagged] == [(FLAGGED_LINE, FLAGGED_LINE, "tfscope")], context
    # Neovim columns are bytes: a position encoding mix-up would shift or split a character
    flagged_line = BUGGY_SCRIPT.splitlines()[FLAGGED_LINE].encode()
    assert flagged_line[flagged[0]["col"] : flagged[0]["end_col"]].decode(errors="replace") in FLAGGED_TEXTS, context
    assert MOVE_INTO_SCOPE in result["offered_actions"], context
    assert script.read_text() == FIXED_SCRIPT, context
    assert all(d["code"] != "TFS001" for d in result["diagnostics_after"]), context


GLANCE_SCRIPT = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
model = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
cpu_copy = tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
with strategy.scope():
    optimizer = tf.keras.optimizers.Adam()
    model.compile(optimizer=optimizer, loss="mse")
"""


def test_inlay_hints_and_code_lens_in_neovim(tmp_path: Path) -> None:
    binary, version_prefix, _ = NEOVIMS["pypi-0.11"]
    require(
        nvim_version(binary).startswith(version_prefix),
        f"{version_prefix.strip()}x not found at {binary}: run scripts/setup-neovim-e2e",
    )
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "trainer"\nversion = "0.1.0"\n')
    (project / "train.py").write_text(GLANCE_SCRIPT)
    result_path = tmp_path / "result.json"
    home = tmp_path / "nvim-home"
    environment = isolated_environment(home) | {
        "TFSCOPE_E2E_REPO": str(REPO),
        "TFSCOPE_E2E_PYTHON": sys.executable,
        "TFSCOPE_E2E_RESULT": str(result_path),
    }

    result, context = run_driver(binary, GLANCE_DRIVER, project / "train.py", environment, result_path, home)

    assert result["errors"] == [], context
    lines = GLANCE_SCRIPT.splitlines()
    # Neovim 0.11 talks UTF-8 columns: ASCII lines, so the end of each creating expression
    assert result["hints"] == [
        {"line": 3, "character": len(lines[3]), "label": "⟨no strategy⟩"},
        {"line": 6, "character": len(lines[6]), "label": "⟨strategy: MirroredStrategy⟩"},
    ], context
    assert result["lenses"] == [
        {"line": 5, "title": "creates 1 distributed object · 1 created outside is used here"}
    ], context
    # Neovim orders the list by position: the model made outside, then the optimizer made in it
    assert [(item["lnum"], item["text"]) for item in result["locations"]] == [
        (4, lines[3]),
        (7, lines[6]),
    ], context
