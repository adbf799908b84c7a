"""Which files `tfscope check` finds, as ruff finds them, and the files it cannot check
(issue 8): each a message naming the file, exit 2, the rest still checked."""

from __future__ import annotations

import os
import subprocess

import pytest

from test_cli import CORRECT, MISPLACED_MODEL, notebook, tfscope, write
from tfscope.config import Settings
from tfscope.files import is_skipped

UNDECODABLE = b"x = '\xff'\n"  # reported as an error if it is ever read


def checked_files(result) -> list[str]:
    return sorted(line.split(":")[0] for line in result.stderr.splitlines() if ": error:" in line)


def test_notebook_checkpoints_virtualenvs_and_installed_packages_are_skipped(tmp_path):
    write(tmp_path, "train.ipynb", notebook(("code", CORRECT)))
    write(tmp_path, ".ipynb_checkpoints/train-checkpoint.ipynb", "{ not json")
    write(tmp_path, "nested/.ipynb_checkpoints/x-checkpoint.ipynb", "{ not json")
    write(tmp_path, ".virtual_documents/train.ipynb", "import tensorflow as tf\n")  # jupyter-lsp's shadow copy
    write(tmp_path, "env/pyvenv.cfg", "home = /usr/bin\n")  # a virtualenv with any name
    write(tmp_path, "env/lib/python3.11/site-packages/tensorflow/x.py", UNDECODABLE)
    write(tmp_path, "py/lib/site-packages/pkg/x.py", UNDECODABLE)
    write(tmp_path, "deb/dist-packages/pkg/x.py", UNDECODABLE)
    for folder in (".tox", ".nox", ".eggs", "_build", "buck-out", "__pypackages__", ".direnv"):
        write(tmp_path, f"{folder}/x.py", UNDECODABLE)
    result = tfscope("check", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_gitignore_ignore_and_git_info_exclude_are_respected(tmp_path):
    write(tmp_path, ".git/info/exclude", "private/\n")
    write(tmp_path, ".gitignore", "generated/\n*.scratch.py\n!keep.scratch.py\n")
    write(tmp_path, "src/.gitignore", "local_*.py\n")
    write(tmp_path, "src/.ignore", "!local_keep.py\n")  # .ignore wins over .gitignore in a folder
    for name in ("generated/x.py", "a.scratch.py", "private/x.py", "src/local_1.py", "src/deep/x.scratch.py"):
        write(tmp_path, name, UNDECODABLE)
    write(tmp_path, "keep.scratch.py", UNDECODABLE)
    write(tmp_path, "src/local_keep.py", UNDECODABLE)
    write(tmp_path, "src/train.py", CORRECT)
    result = tfscope("check", cwd=tmp_path)
    assert checked_files(result) == ["keep.scratch.py", "src/local_keep.py"]
    # respect-gitignore = false, in pyproject.toml or on the command line, reads them all
    assert len(checked_files(tfscope("check", "--no-respect-gitignore", cwd=tmp_path))) == 7
    write(tmp_path, "pyproject.toml", "[tool.tfscope]\nrespect-gitignore = false\n")
    assert len(checked_files(tfscope("check", cwd=tmp_path))) == 7


def test_gitignore_above_the_checked_folder_counts_inside_the_repository(tmp_path):
    write(tmp_path, ".git/HEAD", "ref: refs/heads/main\n")
    write(tmp_path, ".gitignore", "generated/\n")
    write(tmp_path, "src/generated/x.py", UNDECODABLE)
    write(tmp_path, "src/train.py", CORRECT)
    result = tfscope("check", "src", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


WHITELIST_GITIGNORE = """\
# ignore everything, then let the project's sources back in
*
!*.md
!lib/
!lib/**/
!lib/**/*.py
!plugins/
!plugins/**/*.py
!/setup.py
docs/
!docs/
"""


def test_a_whitelist_gitignore_lets_back_in_what_git_lets_back_in(tmp_path):
    # `*` then `!lib/`, `!lib/**/`: a folder that a later line lets back in is walked (the
    # deepfakes/faceswap shape); `plugins/` is let back in but its subfolders are not
    write(tmp_path, ".gitignore", WHITELIST_GITIGNORE)
    names = ("setup.py", "lib/model/losses.py", "lib/utils.py", "lib/model/deep/x.py", "plugins/train.py",
             "plugins/train/model.py", "docs/conf.py", "other.py", "notes/x.py")
    for name in names:
        write(tmp_path, name, UNDECODABLE)
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=tmp_path,
                               capture_output=True, text=True, check=True).stdout.split()
    git_keeps = sorted(name for name in untracked if name.endswith(".py"))
    assert git_keeps == ["lib/model/deep/x.py", "lib/model/losses.py", "lib/utils.py", "plugins/train.py", "setup.py"]
    assert checked_files(tfscope("check", cwd=tmp_path)) == git_keeps
    settings = Settings(root=str(tmp_path))
    assert [name for name in names if not is_skipped(settings, tmp_path / name)] == [
        name for name in names if name in git_keeps]


def test_extend_exclude_and_explicit_files(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nexclude = ["legacy"]\nextend-exclude = ["gen_*.py"]\n')
    write(tmp_path, ".gitignore", "ignored.py\n")
    for name in ("legacy/x.py", "gen_model.py", "ignored.py", "notes/gen_x.py"):
        write(tmp_path, name, UNDECODABLE)
    write(tmp_path, "train.py", CORRECT)
    assert tfscope("check", cwd=tmp_path).stderr == ""
    assert checked_files(tfscope("check", "--extend-exclude", "x.py", "--no-respect-gitignore", cwd=tmp_path)) == ["ignored.py"]
    # named files are always checked, whatever exclude and .gitignore say
    named = tfscope("check", "legacy/x.py", "gen_model.py", "ignored.py", cwd=tmp_path)
    assert checked_files(named) == ["gen_model.py", "ignored.py", "legacy/x.py"]


def test_the_server_leaves_out_what_the_walk_leaves_out(tmp_path):
    write(tmp_path, ".gitignore", "scratch/\n")
    write(tmp_path, "venv2/pyvenv.cfg", "")
    settings = Settings(root=str(tmp_path), extend_exclude=("gen_*.py",))
    assert is_skipped(settings, tmp_path / ".ipynb_checkpoints" / "a-checkpoint.ipynb")
    assert is_skipped(settings, tmp_path / ".virtual_documents" / "train.ipynb")
    assert is_skipped(settings, tmp_path / "venv2" / "lib" / "x.py")
    assert is_skipped(settings, tmp_path / "lib" / "site-packages" / "x.py")
    assert is_skipped(settings, tmp_path / "scratch" / "deep" / "x.py")
    assert is_skipped(settings, tmp_path / "src" / "gen_model.py")
    assert not is_skipped(settings, tmp_path / "src" / "train.py")
    assert not is_skipped(Settings(root=str(tmp_path), respect_gitignore=False), tmp_path / "scratch" / "x.py")


# ---------------------------------------------------------------- files that cannot be checked


def test_an_undefined_coding_cookie_is_reported(tmp_path):
    write(tmp_path, "odd.py", b"# coding: undefined\nx = 1\n")
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("odd.py: error: cannot decode as undefined")
    assert "Traceback" not in result.stderr
    assert "train.py:5:9: TFS001" in result.stdout


def test_a_deeply_nested_notebook_is_reported(tmp_path):
    write(tmp_path, "deep.ipynb", "[" * 100_000)
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "deep.ipynb: error: not a notebook: its JSON is nested too deeply to read\n"
    assert "train.py:5:9: TFS001" in result.stdout


def test_a_deeply_nested_pyproject_is_reported(tmp_path):
    write(tmp_path, "pyproject.toml", "[tool.tfscope]\nx = " + "[" * 5000 + "]" * 5000 + "\n")
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert "pyproject.toml: invalid TOML: nested too deeply to read; using the defaults" in result.stderr
    assert "Traceback" not in result.stderr
    assert "train.py:5:9: TFS001" in result.stdout


@pytest.mark.parametrize("key", ["exclude", "extend-exclude"])
def test_an_invalid_exclude_glob_is_reported_and_the_other_globs_apply(tmp_path, key):
    write(tmp_path, "pyproject.toml", f'[tool.tfscope]\n{key} = ["[z-a]", "generated"]\nignore = ["TFS002"]\n')
    write(tmp_path, "generated/x.py", UNDECODABLE)
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("error:") == 1
    assert "invalid glob '[z-a]'" in result.stderr and "pyproject.toml" in result.stderr
    assert "train.py:5:9: TFS001" in result.stdout


def test_an_invalid_per_file_ignores_glob_is_reported_and_every_file_checked(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nper-file-ignores = { "[z-a]" = ["TFS001"], "b.py" = ["TFS001"] }\n')
    write(tmp_path, "a.py", MISPLACED_MODEL)
    write(tmp_path, "b.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("error:") == 1 and "invalid glob '[z-a]'" in result.stderr
    assert "internal error" not in result.stderr
    assert "a.py:5:9: TFS001" in result.stdout and "b.py:" not in result.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_in_a_checked_folder_is_skipped_and_said_so(tmp_path):
    os.mkfifo(tmp_path / "x.py")
    write(tmp_path, "train.py", MISPLACED_MODEL)
    for args in (("check",), ("check", "x.py", "train.py")):
        result = tfscope(*args, "--output-format", "concise", cwd=tmp_path)  # hangs without the fix (timeout)
        assert result.returncode == 2
        assert result.stderr == "x.py: error: not a regular file (a FIFO, socket or device); skipped\n"
        assert "train.py:5:9: TFS001" in result.stdout
