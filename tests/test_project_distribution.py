"""The project-level evidence that a library function may run under a strategy (TFS013)."""

from __future__ import annotations

from pathlib import Path

from tfscope import engine
from tfscope.config import Settings
from tfscope.resolve import distribution
from tfscope.source import Source

LOSS_HELPER = """\
import tensorflow as tf


def alignment_cost(probs, gold):
    loss = tf.keras.losses.CategoricalCrossentropy()
    return loss(gold, probs)
"""
TRAINER = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    (tmp_path / "setup.py").write_text("from setuptools import setup\nsetup(name='lab')\n")
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def _codes(path: Path) -> list[str]:
    source = Source(text=path.read_text(), path=str(path))
    return [d.code for d in engine.analyze(source, Settings(keras_version="2")).diagnostics]


def test_a_strategy_in_another_module_makes_the_helper_s_loss_a_finding(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/training.py": TRAINER})
    found = distribution.strategy_created(str(project / "lab" / "losses.py"), Settings())
    assert (found.path, found.line, found.name) == ("lab/training.py", 3, "MirroredStrategy")
    assert _codes(project / "lab" / "losses.py") == ["TFS013"]


def test_strategies_created_only_by_tests_are_no_evidence(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "tests/test_distributed.py": TRAINER,
                                  "lab/training_test.py": TRAINER})
    assert distribution.strategy_created(str(project / "lab" / "losses.py"), Settings()) is None
    assert _codes(project / "lab" / "losses.py") == []


def test_test_code_is_never_the_subject(tmp_path):
    project = _project(tmp_path, {"tests/helpers/losses.py": LOSS_HELPER, "lab/training.py": TRAINER})
    assert distribution.strategy_created(str(project / "tests" / "helpers" / "losses.py"), Settings()) is None


def test_keras_3_and_strategy_free_projects_stay_quiet(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/evaluate.py": "import tensorflow as tf\n"})
    assert _codes(project / "lab" / "losses.py") == []
    _project(tmp_path, {"lab/training.py": TRAINER})
    source = Source(text=LOSS_HELPER, path=str(project / "lab" / "losses.py"))
    assert engine.analyze(source, Settings(keras_version="3")).diagnostics == []


def test_the_project_is_the_nearest_marked_folder_never_above_the_root(tmp_path):
    inner = tmp_path / "packages" / "lab"
    inner.mkdir(parents=True)
    (inner / "pyproject.toml").write_text("[project]\nname = 'lab'\n")
    assert distribution.project_folder(str(inner / "src" / "x.py"), None) == inner
    unmarked = tmp_path / "scripts"
    unmarked.mkdir()
    assert distribution.project_folder(str(unmarked / "x.py"), str(tmp_path)) == tmp_path
