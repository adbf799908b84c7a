"""Every editor config shipped in editors/ parses with a real parser.

Lua (Neovim configs) is compiled by Neovim's own LuaJIT; the eglot config is loaded by Emacs,
whose eglot must then map Python buffers to the server; TOML (Helix) and JSON (Sublime LSP,
Kate) are parsed by Python. What they do at run time is shown by test_neovim.py, which drives the Neovim
configs against the server.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tomllib
from pathlib import Path

from .conftest import require

REPO = Path(__file__).resolve().parents[2]
EDITORS = REPO / "editors"
LUA_CHECKER = REPO / "tests" / "e2e" / "nvim" / "check_lua_syntax.lua"
DEBIAN_NVIM = Path("/usr/bin/nvim")
SERVER_COMMAND = ["tfscope", "serve"]


def test_every_lua_file_compiles_in_neovim(tmp_path: Path) -> None:
    require(DEBIAN_NVIM.is_file(), f"no Neovim at {DEBIAN_NVIM}: run scripts/setup-neovim-e2e")
    lua_files = sorted(EDITORS.rglob("*.lua")) + sorted(LUA_CHECKER.parent.glob("*.lua"))
    # a broken file must be reported, or a checker that reports nothing would pass too
    broken = tmp_path / "broken.lua"
    broken.write_text("return { cmd = { 'tfscope' }\n")
    result_path = tmp_path / "result.json"
    subprocess.run(
        [DEBIAN_NVIM, "--headless", "--clean", "-n", "-i", "NONE", "-u", LUA_CHECKER],
        env={"TFSCOPE_E2E_FILES": "\n".join(map(str, [*lua_files, broken])), "TFSCOPE_E2E_RESULT": str(result_path),
             "HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    errors = json.loads(result_path.read_text())
    assert {path: errors[str(path)] for path in lua_files} == {path: False for path in lua_files}
    assert errors[str(broken)], "the checker did not report a syntax error"


def test_emacs_eglot_config_maps_python_buffers_to_the_server(tmp_path: Path) -> None:
    emacs = shutil.which("emacs")
    require(emacs is not None, "no emacs on PATH: run scripts/setup-neovim-e2e")
    # eglot's own lookup for a python-mode buffer: (MODES LANGUAGE-ID CONTACT)
    lookup = '(with-temp-buffer (python-mode) (princ (json-encode (nth 2 (eglot--lookup-mode major-mode)))))'
    completed = subprocess.run(
        [emacs, "--batch", "-l", EDITORS / "emacs" / "tfscope-eglot.el", "--eval", "(require 'eglot)", "--eval", lookup],
        env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout) == SERVER_COMMAND, completed.stderr


def test_helix_languages_toml_declares_the_server_for_python() -> None:
    languages = tomllib.loads((EDITORS / "helix" / "languages.toml").read_text())
    server = languages["language-server"]["tfscope"]
    assert [server["command"], *server["args"]] == SERVER_COMMAND
    python = [language for language in languages["language"] if language["name"] == "python"]
    assert len(python) == 1 and "tfscope" in python[0]["language-servers"]


def test_sublime_lsp_settings_declare_the_server_for_python() -> None:
    settings = json.loads((EDITORS / "sublime" / "LSP.sublime-settings").read_text())
    client = settings["clients"]["tfscope"]
    assert client["command"] == SERVER_COMMAND
    assert client["selector"] == "source.python" and client["enabled"] is True


def test_kate_lsp_client_settings_declare_the_server_for_python() -> None:
    settings = json.loads((EDITORS / "kate" / "lspclient-settings.json").read_text())
    server = settings["servers"]["tfscope"]
    assert server["command"] == SERVER_COMMAND
    assert server["highlightingModeRegex"] == "^Python$"
