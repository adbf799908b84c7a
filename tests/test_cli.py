"""The real ``tfscope`` command line, run as a subprocess on files in a temporary folder."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tfscope.rules import all_rules

MISPLACED_MODEL = """\
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""
MODEL_ROW = 5

CORRECT = """\
import tensorflow as tf
from tensorflow import keras

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])
    model.compile(optimizer="adam", loss="mse")
"""


def tfscope(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "tfscope", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=120
    )


def write(folder: Path, name: str, text: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    return path


def notebook(*cells: tuple[str, str]) -> str:
    return json.dumps(
        {
            "cells": [
                {"cell_type": kind, "metadata": {}, "source": text.splitlines(keepends=True),
                 **({"outputs": [{"output_type": "stream", "name": "stdout", "text": ["kept\n"]}], "execution_count": 1} if kind == "code" else {})}
                for kind, text in cells
            ],
            "metadata": {"kernelspec": {"name": "python3", "language": "python"}, "language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        },
        indent=1,
    ) + "\n"


SPLIT_NOTEBOOK = notebook(
    ("markdown", "# Train"),
    ("code", "import tensorflow as tf\nfrom tensorflow import keras\n%matplotlib inline\nstrategy = tf.distribute.MirroredStrategy()"),
    ("code", "!nvidia-smi\nmodel = keras.Sequential([keras.layers.Dense(10, input_shape=(32,))])"),
    ("code", "with strategy.scope():\n    model.compile(optimizer=\"adam\", loss=\"mse\")"),
)


def json_findings(folder: Path, *args: str) -> list[dict]:
    result = tfscope("check", "--output-format", "json", *args, cwd=folder)
    assert result.returncode in (0, 1), result.stderr
    return json.loads(result.stdout)


# ---------------------------------------------------------------- commands that need no findings


def test_version(tmp_path):
    result = tfscope("--version", cwd=tmp_path)
    assert (result.returncode, result.stdout.strip()) == (0, "tfscope 0.1.0")


def test_console_script_is_installed(tmp_path):
    script = Path(sys.executable).parent / "tfscope"
    result = subprocess.run([str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert result.stdout.startswith("tfscope ")


def test_clean_code_exits_zero(tmp_path):
    write(tmp_path, "train.py", CORRECT)
    result = tfscope("check", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "All checks passed!\n", "")


def test_rule_prints_its_documentation(tmp_path):
    result = tfscope("rule", "tfs001", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("# model-outside-scope (TFS001)\n")
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in result.stdout


def test_rule_all_prints_every_rule(tmp_path):
    result = tfscope("rule", "--all", cwd=tmp_path)
    assert result.returncode == 0
    headings = re.findall(r"^# \S+ \((TFS\d+)\)$", result.stdout, re.M)
    assert headings == [rule.code for rule in all_rules()]


def test_rule_json(tmp_path):
    records = json.loads(tfscope("rule", "TFS010", "--output-format", "json", cwd=tmp_path).stdout)
    assert [(record["code"], record["name"], record["default_enabled"]) for record in records] == [
        ("TFS010", "fit-in-scope", False)
    ]


def test_unknown_rule_is_an_error(tmp_path):
    result = tfscope("rule", "TFS999", cwd=tmp_path)
    assert result.returncode == 2 and "unknown rule code TFS999" in result.stderr


@pytest.mark.parametrize(
    "args",
    [("check", "--select", "XYZ1"), ("check", "--output-format", "xml"), ("serve", "--tcp", "nope"), ("rule",), (),
     ("check", "--select", ""), ("check", "--ignore", " , "), ("check", "--extend-exclude", "[z-a]")],
)
def test_usage_errors_exit_two(tmp_path, args):
    result = tfscope(*args, cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr


def test_unreadable_files_are_reported_and_the_run_goes_on(tmp_path):
    write(tmp_path, "latin.py", b"x = 1\ny = 2\n# caf\xe9 without a coding cookie\n")
    write(tmp_path, "broken.ipynb", "{ not json")
    write(tmp_path, "julia.ipynb", json.dumps({"cells": [], "metadata": {"language_info": {"name": "julia"}}, "nbformat": 4}))
    write(tmp_path, "fine.py", CORRECT)
    result = tfscope("check", cwd=tmp_path)
    assert result.returncode == 2
    errors = sorted(result.stderr.splitlines())
    assert len(errors) == 3
    assert errors[0].startswith("broken.ipynb: error: not valid notebook JSON")
    assert errors[1].startswith("julia.ipynb: error: not a Python notebook")
    assert errors[2].startswith("latin.py: error: cannot decode as utf-8")
    assert result.stdout == "No findings in the files checked, but 3 files could not be checked (see above).\n"


def test_a_missing_path_exits_two(tmp_path):
    write(tmp_path, "fine.py", CORRECT)
    result = tfscope("check", "fine.py", "nowhere.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == "nowhere.py: error: no such file or directory\n"


def test_coding_cookie_and_bom_are_honoured(tmp_path):
    write(tmp_path, "latin.py", "# -*- coding: latin-1 -*-\n# café\n".encode("latin-1") + CORRECT.encode())
    write(tmp_path, "bom.py", b"\xef\xbb\xbf" + CORRECT.encode())
    result = tfscope("check", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")


def test_tool_folders_are_skipped_and_exclude_is_honoured(tmp_path):
    undecodable = b"x = '\xff'\n"
    for folder in (".venv", ".git", "node_modules", "__pycache__", "build", "dist", "generated", "src/legacy"):
        write(tmp_path, f"{folder}/bad.py", undecodable)
    write(tmp_path, "scratch_1.ipynb", "{ not json")
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nexclude = ["generated", "src/legacy/*.py", "scratch_*.ipynb"]\n')
    write(tmp_path, "src/train.py", CORRECT)
    result = tfscope("check", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    # a file named on the command line is always checked, as in ruff ...
    assert tfscope("check", "src/legacy/bad.py", cwd=tmp_path).returncode == 2
    assert tfscope("check", "src", "build/bad.py", cwd=tmp_path).returncode == 2
    # ... unless --force-exclude, which the pre-commit hook passes
    for named in ("src/legacy/bad.py", "build/bad.py", ".venv/bad.py"):
        assert tfscope("check", "--force-exclude", named, cwd=tmp_path).returncode == 0, named


def test_invalid_configuration_names_the_key_uses_defaults_and_exits_two(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nselect = ["TFS999"]\nkeras-version = "3"\n')
    write(tmp_path, "train.py", CORRECT)
    result = tfscope("check", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.count("error:") == 1
    assert "'select'" in result.stderr and "TFS999" in result.stderr and "pyproject.toml" in result.stderr


def test_config_option_reads_the_given_file(tmp_path):
    write(tmp_path, "ci/tfscope.toml", 'ignore = ["TFS001"]\n')
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--config", "ci/tfscope.toml", "train.py", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "All checks passed!\n")
    assert tfscope("check", "--config", "missing.toml", cwd=tmp_path).returncode == 2


def test_sarif_document_is_valid_without_findings(tmp_path):
    write(tmp_path, "train.py", CORRECT)
    result = tfscope("check", "--output-format", "sarif", cwd=tmp_path)
    assert result.returncode == 0
    run = assert_valid_sarif(json.loads(result.stdout))
    assert run["results"] == []


def test_pre_commit_hook_runs_the_check_command():
    hooks = (Path(__file__).resolve().parents[1] / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    assert re.search(r"^- id: tfscope$", hooks, re.M)
    assert re.search(r"^  entry: tfscope check --force-exclude( |$)", hooks, re.M)
    assert re.search(r"^  types_or: \[python, jupyter\]$", hooks, re.M)
    assert re.search(r"^  language: python$", hooks, re.M)


def assert_valid_sarif(document: dict) -> dict:
    """The fields SARIF 2.1.0 requires, checked by hand (no network for the schema)."""
    assert document["version"] == "2.1.0"
    assert document["$schema"].endswith("sarif-2.1.0.json")
    (run,) = document["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "tfscope" and driver["version"] == "0.1.0"
    assert "informationUri" not in driver  # no public home page yet: none is invented
    assert [rule["id"] for rule in driver["rules"]] == [rule.code for rule in all_rules()]
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"]
        assert rule["fullDescription"]["text"]
        assert "## What it does" in rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
    for result in run["results"]:
        assert result["level"] in ("error", "warning", "note")
        assert result["message"]["text"]
        assert driver["rules"][result["ruleIndex"]]["id"] == result["ruleId"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert not physical["artifactLocation"]["uri"].startswith(("/", "file:"))
        region = physical["region"]
        assert all(isinstance(region[key], int) and region[key] >= 1 for key in ("startLine", "startColumn", "endLine", "endColumn"))
    return run


# ---------------------------------------------------------------- findings in every format


def test_text_output_like_ruff(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", cwd=tmp_path)
    assert result.returncode == 1
    (finding,) = json_findings(tmp_path)
    column = finding["location"]["column"]
    headline = f"train.py:{MODEL_ROW}:{column}: TFS001 [warning] "  # the severity, where ruff shows [*]
    assert result.stdout.startswith(headline)
    assert f"{MODEL_ROW} | model = keras.Sequential(" in result.stdout  # the code frame
    assert "Found 1 warning.\n" in result.stdout


def test_concise_output_is_one_line_per_finding_and_a_summary(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    lines = result.stdout.splitlines()
    assert result.returncode == 1
    assert re.fullmatch(rf"train\.py:{MODEL_ROW}:\d+: TFS001 \[warning\] (\[\*\] )?\S.*", lines[0])
    assert lines[1] == "Found 1 warning."


def test_json_output_follows_ruffs_schema_plus_severity(tmp_path):
    path = write(tmp_path, "train.py", MISPLACED_MODEL)
    (finding,) = json_findings(tmp_path)
    assert set(finding) == {"cell", "code", "end_location", "filename", "fix", "location", "message", "noqa_row", "severity", "url"}
    assert finding["code"] == "TFS001"
    assert finding["filename"] == str(path)
    assert finding["location"]["row"] == MODEL_ROW and finding["noqa_row"] == MODEL_ROW
    assert finding["end_location"]["row"] >= MODEL_ROW
    assert (finding["cell"], finding["url"], finding["severity"]) == (None, None, "warning")
    assert "model" in finding["message"]
    if finding["fix"] is not None:
        assert finding["fix"]["applicability"] in ("safe", "unsafe", "display-only")
        for edit in finding["fix"]["edits"]:
            assert set(edit) == {"content", "location", "end_location"}


def test_columns_count_characters_after_non_ascii_text(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL.replace("model = keras", "modèle = model = keras"))
    write(tmp_path, "ascii.py", MISPLACED_MODEL.replace("model = keras", "modele = model = keras"))
    by_file = {Path(finding["filename"]).name: finding for finding in json_findings(tmp_path)}
    assert by_file["train.py"]["location"] == by_file["ascii.py"]["location"]


def test_github_annotations(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    (finding,) = json_findings(tmp_path)
    result = tfscope("check", "--output-format", "github", cwd=tmp_path)
    start, end = finding["location"], finding["end_location"]
    expected = (
        f"::warning title=tfscope (TFS001),file=train.py,line={start['row']},col={start['column']},"
        f"endLine={end['row']},endColumn={end['column']}::TFS001 {finding['message']}"
    )
    assert result.stdout.splitlines() == [expected.replace("%", "%25")]
    assert result.returncode == 1


def test_sarif_output_with_a_result(tmp_path):
    write(tmp_path, "src/train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "sarif", cwd=tmp_path)
    assert result.returncode == 1
    run = assert_valid_sarif(json.loads(result.stdout))
    (sarif_result,) = run["results"]
    assert sarif_result["ruleId"] == "TFS001" and sarif_result["level"] == "warning"
    physical = sarif_result["locations"][0]["physicalLocation"]
    assert physical["artifactLocation"]["uri"] == "src/train.py"
    assert physical["region"]["startLine"] == MODEL_ROW
    (fix,) = sarif_result["fixes"]
    (change,) = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/train.py" and change["replacements"][0]["deletedRegion"]["startLine"] >= 1
    fingerprint = sarif_result["partialFingerprints"]["tfscope/v1"]
    # the fingerprint survives lines added above the finding
    write(tmp_path, "src/train.py", "# a new first line\n" + MISPLACED_MODEL)
    moved = json.loads(tfscope("check", "--output-format", "sarif", cwd=tmp_path).stdout)["runs"][0]["results"][0]
    assert moved["locations"][0]["physicalLocation"]["region"]["startLine"] == MODEL_ROW + 1
    assert moved["partialFingerprints"]["tfscope/v1"] == fingerprint


def test_notebook_findings_are_reported_per_cell(tmp_path):
    write(tmp_path, "train.ipynb", SPLIT_NOTEBOOK)
    (finding,) = json_findings(tmp_path)
    assert finding["code"] == "TFS001"
    assert finding["cell"] == 3  # 1-based among all cells, the markdown cell included
    assert finding["location"]["row"] == 2  # the row within that cell
    concise = tfscope("check", "--output-format", "concise", cwd=tmp_path).stdout
    assert concise.startswith(f"train.ipynb:cell 3:2:{finding['location']['column']}: TFS001 ")


# ---------------------------------------------------------------- selection and exit codes


@pytest.mark.parametrize(
    "args", [("--ignore", "TFS001"), ("--select", "TFS002,TFS003"), ("--ignore", "TFS0"), ("--exit-zero",)]
)
def test_selection_and_exit_zero(tmp_path, args):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    assert tfscope("check", *args, cwd=tmp_path).returncode == 0
    assert tfscope("check", cwd=tmp_path).returncode == 1


def test_pyproject_ignore_and_per_file_ignores(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nper-file-ignores = {"experiments/*.py" = ["TFS001"]}\n')
    write(tmp_path, "experiments/try.py", MISPLACED_MODEL)
    write(tmp_path, "train.py", MISPLACED_MODEL)
    assert [Path(finding["filename"]).name for finding in json_findings(tmp_path)] == ["train.py"]
    # the command line wins over the file
    assert json_findings(tmp_path, "--extend-select", "TFS001") != []
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nignore = ["TFS001"]\n')
    assert json_findings(tmp_path) == []


def test_severity_override_reaches_every_format(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope.severity]\nTFS001 = "error"\n')
    write(tmp_path, "train.py", MISPLACED_MODEL)
    (finding,) = json_findings(tmp_path)
    assert finding["severity"] == "error"
    assert tfscope("check", "--output-format", "github", cwd=tmp_path).stdout.startswith("::error ")


def test_statistics(tmp_path):
    write(tmp_path, "a.py", MISPLACED_MODEL)
    write(tmp_path, "b.py", MISPLACED_MODEL)
    result = tfscope("check", "--statistics", cwd=tmp_path)
    assert result.returncode == 1
    assert re.fullmatch(r"2\tTFS001\t(\[\*\] |    )model-outside-scope\n", result.stdout)


def test_many_files_in_parallel_are_all_reported_in_order(tmp_path):
    for number in range(12):
        write(tmp_path, f"pkg/train_{number:02}.py", MISPLACED_MODEL)
    write(tmp_path, "pkg/broken.py", b"\xff\xfe")
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("pkg/broken.py: error: ")
    lines = result.stdout.splitlines()
    reported = [line.split(":")[0] for line in lines if line.startswith("pkg/")]
    assert reported == [f"pkg/train_{number:02}.py" for number in range(12)]
    assert "Found 12 warnings." in lines
    assert "1 file could not be checked (see above)." in lines


# ---------------------------------------------------------------- fixes


def test_fix_moves_the_model_into_the_scope_and_reports_it(tmp_path):
    path = write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--fix", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "Found 1 finding (1 fixed, 0 remaining).\n")
    fixed = path.read_text(encoding="utf-8")
    assert fixed != MISPLACED_MODEL
    assert re.search(r"with strategy\.scope\(\):\n(    .*\n)*    model = keras\.Sequential", fixed)
    assert tfscope("check", cwd=tmp_path).returncode == 0


def test_fix_keeps_crlf_line_breaks(tmp_path):
    path = write(tmp_path, "train.py", MISPLACED_MODEL.replace("\n", "\r\n"))
    assert tfscope("check", "--fix", cwd=tmp_path).returncode == 0
    fixed = path.read_bytes()
    assert fixed.count(b"\r\n") == fixed.count(b"\n")


def test_diff_prints_the_fix_and_leaves_the_file_alone(tmp_path):
    path = write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--diff", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("--- train.py\n+++ train.py\n@@ ")
    assert "\n-model = keras.Sequential" in result.stdout
    assert "\n+    model = keras.Sequential" in result.stdout
    assert result.stderr == "Would fix 1 finding.\n"
    assert path.read_text(encoding="utf-8") == MISPLACED_MODEL


def test_diff_without_changes_exits_zero(tmp_path):
    write(tmp_path, "train.py", CORRECT)
    result = tfscope("check", "--diff", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")


def test_fix_in_a_notebook_rewrites_only_cell_sources(tmp_path):
    path = write(tmp_path, "train.ipynb", SPLIT_NOTEBOOK)
    result = tfscope("check", "--fix", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    before, after = json.loads(SPLIT_NOTEBOOK), json.loads(path.read_text(encoding="utf-8"))
    sources = ["".join(cell["source"]) for cell in after["cells"]]
    assert "model = keras.Sequential" not in sources[2]
    assert "!nvidia-smi" in sources[2]
    assert re.search(r"with strategy\.scope\(\):\n(    .*\n)*    model = keras\.Sequential", sources[1] + "\n" + sources[3])
    for cell_before, cell_after in zip(before["cells"], after["cells"]):
        assert {key: value for key, value in cell_after.items() if key != "source"} == {
            key: value for key, value in cell_before.items() if key != "source"
        }
    assert after["metadata"] == before["metadata"]
    assert tfscope("check", cwd=tmp_path).returncode == 0


def test_diff_of_a_notebook_names_the_cells(tmp_path):
    write(tmp_path, "train.ipynb", SPLIT_NOTEBOOK)
    result = tfscope("check", "--diff", cwd=tmp_path)
    assert result.returncode == 1
    labels = re.findall(r"^--- (.*)$", result.stdout, re.M)
    assert labels and all(re.fullmatch(r"train\.ipynb:cell [234]", label) for label in labels)


def test_a_file_the_system_cannot_read_is_reported_and_the_rest_checked(tmp_path):
    """A symlink loop fails to open even for root (CI runs as root, where file modes do not stop reads)."""
    (tmp_path / "loop.py").symlink_to("loop.py")
    write(tmp_path, "fine.py", CORRECT)
    result = tfscope("check", "loop.py", "fine.py", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("loop.py: error: Too many levels of symbolic links")
    assert result.stdout == "No findings in the files checked, but 1 file could not be checked (see above).\n"


# ---------------------------------------------------------------- serve and Keras version


def _lsp_message(payload: dict) -> bytes:
    body = json.dumps(payload).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _lsp_bodies(stream: bytes) -> list[dict]:
    bodies = []
    while stream:
        headers, _, rest = stream.partition(b"\r\n\r\n")
        length = int(re.search(rb"Content-Length: (\d+)", headers).group(1))
        bodies.append(json.loads(rest[:length]))
        stream = rest[length:]
    return bodies


def test_serve_speaks_lsp_over_stdio(tmp_path):
    requests = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None, "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
        {"jsonrpc": "2.0", "method": "exit"},
    ]
    process = subprocess.run(
        [sys.executable, "-m", "tfscope", "serve"],
        input=b"".join(_lsp_message(request) for request in requests),
        capture_output=True,
        cwd=tmp_path,
        timeout=120,
    )
    by_id = {body["id"]: body for body in _lsp_bodies(process.stdout) if "id" in body}
    assert "capabilities" in by_id[1]["result"]
    assert by_id[2]["result"] is None


def test_keras_version_option_changes_what_compile_outside_the_scope_means(tmp_path):
    write(
        tmp_path,
        "train.py",
        CORRECT.replace('    model.compile(optimizer="adam", loss="mse")', 'model.compile(optimizer="adam", loss="mse")'),
    )
    assert [finding["code"] for finding in json_findings(tmp_path, "--keras-version", "3")] == ["TFS007"]
    assert json_findings(tmp_path, "--keras-version", "2") == []


def test_noqa_row_is_where_the_comment_would_go(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL.replace("input_shape=(32,))])", 'input_shape=(32,))], name="""a\nb""")'))
    (finding,) = json_findings(tmp_path)
    assert (finding["location"]["row"], finding["noqa_row"]) == (MODEL_ROW, MODEL_ROW + 1)


def test_hints_alone_are_shown_but_do_not_fail_the_run(tmp_path):
    write(tmp_path, "train.py", (
        "import tensorflow as tf\n"
        "strategy = tf.distribute.MirroredStrategy()\n"
        "with strategy.scope():\n"
        "    dataset = tf.data.Dataset.range(8).batch(2)\n"
        "    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])\n"
        "    model.compile(optimizer='adam', loss='mse')\n"
    ))
    hinted = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert hinted.returncode == 0
    assert "train.py:4:5: TFS009 [hint]" in hinted.stdout
    assert "\nFound 1 hint.\n" in hinted.stdout  # not "1 error"
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nseverity = { TFS009 = "warning" }\n')
    assert tfscope("check", cwd=tmp_path).returncode == 1  # re-graded, it fails like any warning


def test_summary_counts_findings_by_severity(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nseverity = { TFS002 = "error" }\n')
    write(tmp_path, "train.py", MISPLACED_MODEL.replace('optimizer="adam"', "optimizer=keras.optimizers.Adam()")
          .replace("with strategy.scope():", "opt = keras.optimizers.SGD()\nwith strategy.scope():")
          .replace("optimizer=keras.optimizers.Adam()", "optimizer=opt"))
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1
    assert " TFS002 [error] " in result.stdout and " TFS001 [warning] " in result.stdout
    assert "Found 2 findings (1 error, 1 warning).\n" in result.stdout


def test_a_file_that_does_not_parse_says_so_and_fails_the_run(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL + "\ndef broken(:\n    pass\n")
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stderr == (
        "train.py:9:12: syntax error: invalid syntax; the code that parses was analysed, findings may be missing\n"
    )
    assert f"train.py:{MODEL_ROW}:9: TFS001" in result.stdout  # the rest is still analysed
    assert "1 file could not be fully parsed (see above)." in result.stdout
    write(tmp_path, "train.py", "x = (\n")
    result = tfscope("check", cwd=tmp_path)
    assert result.returncode == 1 and "All checks passed!" not in result.stdout
    assert result.stdout == "No findings in the files checked, but 1 file could not be fully parsed (see above).\n"
    assert tfscope("check", "--exit-zero", cwd=tmp_path).returncode == 0


def test_a_broken_pyproject_is_reported_with_line_and_column(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nignore = ["TFS001"\n')
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "concise", cwd=tmp_path)
    assert result.returncode == 2
    assert re.fullmatch(r"error: /\S+/pyproject\.toml: invalid TOML: line 3, column 1: \S.*; using the defaults\n", result.stderr)
    assert f"train.py:{MODEL_ROW}:9: TFS001" in result.stdout  # with the defaults


def test_tfscope_toml_is_discovered(tmp_path):
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\nignore = ["TFS002"]\n')
    write(tmp_path, ".tfscope.toml", 'ignore = ["TFS001"]\n')
    write(tmp_path, "train.py", MISPLACED_MODEL)
    assert tfscope("check", cwd=tmp_path).stdout == "All checks passed!\n"


def test_standard_input_with_a_filename(tmp_path):
    write(tmp_path, "src/pyproject.toml", '[tool.tfscope]\nseverity = { TFS001 = "error" }\n')
    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tfscope", "check", *args], cwd=tmp_path, input=MISPLACED_MODEL,
            capture_output=True, text=True, timeout=120,
        )

    result = run("-", "--stdin-filename", "src/train.py", "--output-format", "concise")
    assert result.returncode == 1
    # the configuration of the named file applies, and findings carry its name
    assert result.stdout.startswith(f"src/train.py:{MODEL_ROW}:9: TFS001 [error] ")
    assert not (tmp_path / "src" / "train.py").exists()
    fixed = run("--stdin-filename", "train.py", "--fix")
    assert fixed.returncode == 0
    assert "with strategy.scope():\n    model = keras.Sequential" in fixed.stdout  # the fixed code, on stdout
    assert fixed.stderr == "Found 1 finding (1 fixed, 0 remaining).\n"
    assert run("-", "src").returncode == 2  # standard input is checked alone


def test_output_file_quiet_silent_and_show_fixes(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    result = tfscope("check", "--output-format", "json", "--output-file", "out/report.json", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (1, "")
    assert json.loads((tmp_path / "out" / "report.json").read_text())[0]["code"] == "TFS001"
    quiet = tfscope("check", "--quiet", "--output-format", "concise", cwd=tmp_path)
    assert quiet.returncode == 1 and quiet.stdout.count("\n") == 1 and "Found" not in quiet.stdout
    silent = tfscope("check", "--silent", cwd=tmp_path)
    assert (silent.returncode, silent.stdout, silent.stderr) == (1, "", "")
    shown = tfscope("check", "--show-fixes", "--output-format", "concise", cwd=tmp_path)
    assert shown.stdout.endswith("Would fix 1 finding:\n- train.py:\n    1 × TFS001 (model-outside-scope)\n")
    fixed = tfscope("check", "--fix", "--show-fixes", cwd=tmp_path)
    assert fixed.stdout.endswith("Fixed 1 finding:\n- train.py:\n    1 × TFS001 (model-outside-scope)\n")


def test_gitlab_junit_and_pylint_formats(tmp_path):
    write(tmp_path, "src/train.py", MISPLACED_MODEL)
    write(tmp_path, "nb.ipynb", notebook(("markdown", "# setup"), ("code", MISPLACED_MODEL)))
    gitlab = tfscope("check", "--output-format", "gitlab", cwd=tmp_path)
    assert gitlab.returncode == 1
    issues = json.loads(gitlab.stdout)
    assert [issue["location"]["path"] for issue in issues] == ["nb.ipynb", "src/train.py"]
    assert issues[1]["check_name"] == "TFS001" and issues[1]["severity"] == "major"
    assert issues[1]["location"]["positions"]["begin"] == {"line": MODEL_ROW, "column": 9}
    assert len({issue["fingerprint"] for issue in issues}) == 2
    assert issues[0]["description"].startswith("TFS001: cell 2: ")

    junit = tfscope("check", "--output-format", "junit", cwd=tmp_path)
    from xml.etree import ElementTree

    root = ElementTree.fromstring(junit.stdout)
    assert (root.tag, root.get("failures")) == ("testsuites", "2")
    case = root.find("testsuite[@name='src/train.py']/testcase")
    assert case.get("name") == "org.tfscope.TFS001" and case.get("line") == str(MODEL_ROW)
    assert case.find("failure").text.startswith(f"line {MODEL_ROW}, col 9, Model")

    pylint = tfscope("check", "--output-format", "pylint", cwd=tmp_path)
    lines = pylint.stdout.splitlines()
    assert lines[0].startswith("nb.ipynb:cell 2:5: [TFS001] Model")
    assert lines[1].startswith(f"src/train.py:{MODEL_ROW}: [TFS001] Model")

    write(tmp_path, "src/train.py", CORRECT)
    (tmp_path / "nb.ipynb").unlink()
    clean = ElementTree.fromstring(tfscope("check", "--output-format", "junit", cwd=tmp_path).stdout)
    assert clean.get("failures") == "0"
    assert tfscope("check", "--output-format", "gitlab", cwd=tmp_path).stdout == "[]\n"


def test_add_noqa_suppresses_every_finding_once(tmp_path):
    two_on_a_line = MISPLACED_MODEL.replace(
        'model.compile(optimizer="adam", loss="mse")', "model.compile(optimizer=opt, loss='mse')"
    ).replace("with strategy.scope():", "model2 = keras.Sequential([keras.layers.Dense(1)]); opt = keras.optimizers.SGD()  # noqa: E501\nwith strategy.scope():\n    model2.compile(optimizer='sgd', loss='mse')")
    path = write(tmp_path, "train.py", two_on_a_line)
    before = json_findings(tmp_path)
    assert len(before) >= 2
    result = tfscope("check", "--add-noqa", cwd=tmp_path)
    assert result.returncode == 0
    assert re.fullmatch(r"Added \d+ noqa directives?\.\n", result.stderr)
    text = path.read_text()
    assert "# noqa: E501, TFS001, TFS002\n" in text  # an existing noqa comment is extended, not replaced
    assert "input_shape=(32,))])  # noqa: TFS001\n" in text
    assert tfscope("check", cwd=tmp_path).stdout == "All checks passed!\n"
    again = tfscope("check", "--add-noqa", cwd=tmp_path)
    assert again.stderr == "Added 0 noqa directives.\n" and path.read_text() == text
    assert tfscope("check", "--add-noqa", "--fix", cwd=tmp_path).returncode == 2


def test_docs_url_fills_json_url_and_sarif_help_uri(tmp_path):
    write(tmp_path, "train.py", MISPLACED_MODEL)
    (finding,) = json_findings(tmp_path)
    assert finding["url"] is None  # no documentation site is configured (none is invented)
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\ndocs-url = "https://docs.example.org/tfscope/rules/{code}.html"\n')
    (finding,) = json_findings(tmp_path)
    assert finding["url"] == "https://docs.example.org/tfscope/rules/tfs001.html"
    sarif = json.loads(tfscope("check", "--output-format", "sarif", cwd=tmp_path).stdout)
    rules = {rule["id"]: rule for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert rules["TFS001"]["helpUri"] == "https://docs.example.org/tfscope/rules/tfs001.html"
    write(tmp_path, "pyproject.toml", '[tool.tfscope]\ndocs-url = "not a url"\n')
    assert tfscope("check", cwd=tmp_path).returncode == 2


def test_watch_checks_again_when_a_file_changes(tmp_path):
    import threading

    path = write(tmp_path, "train.py", CORRECT)
    watcher = subprocess.Popen(
        [sys.executable, "-m", "tfscope", "check", "--watch", "--output-format", "concise"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    timer = threading.Timer(60, watcher.kill)  # never hang the suite
    timer.start()
    try:
        def wait_for(marker: str) -> None:
            for line in watcher.stderr:
                if marker in line:
                    return
            raise AssertionError(f"the watcher ended before {marker!r}")

        wait_for("Watching for file changes.")
        assert watcher.stdout.readline() == "All checks passed!\n"
        path.write_text(MISPLACED_MODEL)
        wait_for("Checking in watch mode")
        assert watcher.stdout.readline().startswith(f"train.py:{MODEL_ROW}:9: TFS001 ")
    finally:
        timer.cancel()
        watcher.kill()
        watcher.wait()
