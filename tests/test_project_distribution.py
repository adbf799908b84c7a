"""The project-level evidence that a library function may run under a strategy (TFS013)."""

from __future__ import annotations

from pathlib import Path

import pytest

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
from lab import losses

strategy = tf.distribute.MirroredStrategy()
"""


def _project(tmp_path: Path, files: dict[str, str]) -> Path:
    tmp_path.mkdir(parents=True, exist_ok=True)
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
    found = distribution.strategies_created(str(project / "lab" / "losses.py"), Settings())
    assert [(each.path, each.line, each.name) for each in found] == [("lab/training.py", 4, "MirroredStrategy")]
    assert _codes(project / "lab" / "losses.py") == ["TFS013"]


def test_every_strategy_the_project_creates_is_listed(tmp_path):
    tpu_driver = "import tensorflow as tf\nimport lab.losses\nresolver = None\nstrategy = tf.distribute.TPUStrategy(resolver)\n"
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/training.py": TRAINER, "lab/tpu.py": tpu_driver})
    found = distribution.strategies_created(str(project / "lab" / "losses.py"), Settings())
    assert sorted((each.path, each.line, each.name) for each in found) == [
        ("lab/tpu.py", 4, "TPUStrategy"), ("lab/training.py", 4, "MirroredStrategy")]


def test_a_docstring_example_is_no_strategy_creation(tmp_path):
    documented = ('import tensorflow as tf\nimport lab.losses\n\n\ndef distribute(task):\n    """Distribute it:\n\n'
                  '    >>> strategy = tf.distribute.TPUStrategy(resolver)\n    ... strategy = tf.distribute.MirroredStrategy()\n'
                  '    """\n    return task\n')
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/docs.py": documented})
    assert distribution.strategies_created(str(project / "lab" / "losses.py"), Settings()) == ()
    assert _codes(project / "lab" / "losses.py") == []


def test_a_file_that_starts_creating_a_strategy_counts_once_the_listing_period_passed(tmp_path, monkeypatch):
    """A file seen creating no strategy is not read again for every analysed module, only once per
    listing period (as a new file is found); one that creates a strategy is read each time."""
    clock = [1000.0]
    monkeypatch.setattr(distribution.time, "monotonic", lambda: clock[0])
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/metrics.py": LOSS_HELPER,
                                  "lab/training.py": "import lab.losses\n"})
    reads = []
    read = distribution._ProjectScan._read
    monkeypatch.setattr(distribution._ProjectScan, "_read", lambda scan, path: reads.append(path.name) or read(scan, path))
    for helper in ("losses.py", "metrics.py"):
        assert distribution.strategies_created(str(project / "lab" / helper), Settings()) == ()
    assert reads.count("training.py") == 1
    (project / "lab" / "training.py").write_text(TRAINER)
    clock[0] += distribution.LISTING_SECONDS + 1
    found = distribution.strategies_created(str(project / "lab" / "losses.py"), Settings())
    assert [each.path for each in found] == ["lab/training.py"]


def test_a_script_that_does_not_import_the_module_s_package_is_no_evidence(tmp_path):
    """A book's chapters: chapter 8's multi-GPU script runs none of chapter 3's code."""
    chapter8 = "import tensorflow as tf\nfrom tensorflow.keras import losses\n\nstrategy = tf.distribute.MirroredStrategy()\n"
    project = _project(tmp_path, {"Chapter03/a3c.py": LOSS_HELPER, "Chapter08/multi_gpu.py": chapter8})
    assert distribution.strategies_created(str(project / "Chapter03" / "a3c.py"), Settings()) == ()
    assert _codes(project / "Chapter03" / "a3c.py") == []


def test_a_folder_without_init_is_reached_only_through_its_modules_dotted_path(tmp_path):
    """`guides/keras_tuner/` has no `__init__.py`: a guide beside it that imports `keras_tuner` gets
    the installed library (a namespace folder loses to a package, and importing it runs none of its
    modules), while `from keras_tuner import custom_tuner` does run the module."""
    library_user = "import tensorflow as tf\nimport keras_tuner\n\nstrategy = tf.distribute.MirroredStrategy()\n"
    module_user = library_user.replace("import keras_tuner", "from keras_tuner import custom_tuner")
    for folder, guide, reached in (("library", library_user, False), ("module", module_user, True)):
        project = _project(tmp_path / folder, {"guides/keras_tuner/custom_tuner.py": LOSS_HELPER,
                                               "guides/intro.py": guide})
        helper = project / "guides" / "keras_tuner" / "custom_tuner.py"
        assert bool(distribution.strategies_created(str(helper), Settings())) is reached
        assert _codes(helper) == (["TFS013"] if reached else [])


TRAINING_TEST = """\
import tensorflow as tf


def test_training_is_distributed():
    strategy = tf.distribute.MirroredStrategy()
"""


def test_strategies_created_only_by_tests_are_no_evidence(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "tests/test_distributed.py": TRAINER,
                                  "lab/training_test.py": TRAINING_TEST})
    assert distribution.strategies_created(str(project / "lab" / "losses.py"), Settings()) == ()
    assert _codes(project / "lab" / "losses.py") == []


def test_a_script_named_like_a_test_that_defines_no_test_is_evidence(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "test_on_tpu.py": TRAINER})
    found = distribution.strategies_created(str(project / "lab" / "losses.py"), Settings())
    assert [(each.path, each.name) for each in found] == [("test_on_tpu.py", "MirroredStrategy")]


def test_test_code_is_never_the_subject(tmp_path):
    project = _project(tmp_path, {"tests/helpers/losses.py": LOSS_HELPER, "lab/training.py": TRAINER})
    assert distribution.strategies_created(str(project / "tests" / "helpers" / "losses.py"), Settings()) == ()


def test_keras_3_and_strategy_free_projects_stay_quiet(tmp_path):
    project = _project(tmp_path, {"lab/losses.py": LOSS_HELPER, "lab/evaluate.py": "import tensorflow as tf\n"})
    assert _codes(project / "lab" / "losses.py") == []
    _project(tmp_path, {"lab/training.py": TRAINER})
    source = Source(text=LOSS_HELPER, path=str(project / "lab" / "losses.py"))
    assert engine.analyze(source, Settings(keras_version="3")).diagnostics == []


def test_the_package_then_its_repository_never_above_the_root(tmp_path):
    (tmp_path / ".git").mkdir()
    inner = tmp_path / "packages" / "lab"
    inner.mkdir(parents=True)
    (inner / "pyproject.toml").write_text("[project]\nname = 'lab'\n")
    assert distribution.project_folders(str(inner / "src" / "x.py"), None) == [inner, tmp_path]
    assert distribution.project_folders(str(inner / "x.py"), str(inner)) == [inner]
    unmarked = tmp_path / "scripts"
    unmarked.mkdir()
    assert distribution.project_folders(str(unmarked / "x.py"), None) == [tmp_path]


def test_a_library_package_used_under_a_strategy_beside_it_in_the_repository(tmp_path):
    (tmp_path / ".git").mkdir()
    _project(tmp_path / "lib", {"lab/losses.py": LOSS_HELPER})
    (tmp_path / "use-cases").mkdir()
    (tmp_path / "use-cases" / "train.py").write_text(TRAINER)
    found = distribution.strategies_created(str(tmp_path / "lib" / "lab" / "losses.py"), Settings())
    assert [(each.path, each.name) for each in found] == [("use-cases/train.py", "MirroredStrategy")]


WRAPPED_LOSS = """\
import tensorflow as tf


class DiscriminatorMinMax(tf.keras.losses.Loss):
    def __init__(self, from_logits=True):
        self._real_bce = tf.keras.losses.BinaryCrossentropy(from_logits=from_logits)
        super().__init__()

    @property
    def reduction(self):
        return self._real_bce.reduction

    @reduction.setter
    def reduction(self, value):
        self._real_bce.reduction = value

    def call(self, d_real, d_fake):
        return self._real_bce(tf.ones_like(d_real), d_real)
"""


def test_a_loss_whose_reduction_a_wrapper_s_setter_forwards_is_the_wrapper_users_choice(tmp_path):
    """ashpy's shape: the executor sets `loss.reduction = NONE` on the wrapper, whose setter hands it
    to the inner loss; the inner loss's default at construction is not what runs."""
    project = _project(tmp_path, {"lab/losses.py": WRAPPED_LOSS, "lab/training.py": TRAINER})
    assert _codes(project / "lab" / "losses.py") == []
    without_setter = WRAPPED_LOSS.replace("        self._real_bce.reduction = value\n", "        pass\n")
    project = _project(tmp_path / "plain", {"lab/losses.py": without_setter, "lab/training.py": TRAINER})
    assert _codes(project / "lab" / "losses.py") == ["TFS013"]


def test_what_a_file_creates_and_whether_it_defines_tests_is_read_line_by_line(tmp_path):
    """Each construction once per line, on the line it starts on (also after a long line without
    one, a commented one, a docstring example and an argument list broken over lines)."""
    text = ("import tensorflow as tf\n" + "x = 'Strategy' * 3  # no construction\n" * 200
            + "# strategy = tf.distribute.TPUStrategy()\n"
            + "    >>> tf.distribute.MirroredStrategy()\n"
            + "first = tf.distribute.MirroredStrategy(); second = tf.distribute.OneDeviceStrategy('/gpu:0')\n"
            + "worker = tf.distribute.MultiWorkerMirroredStrategy (\n    cluster_resolver=None)\n"
            + "tpu = tf.distribute.experimental.TPUStrategy(resolver)")
    path = tmp_path / "train.py"
    path.write_text(text)
    facts = distribution._ProjectScan()._read(path)
    assert facts.creations == (("MirroredStrategy", 204), ("MultiWorkerMirroredStrategy", 205), ("TPUStrategy", 207))
    assert not facts.defines_tests


@pytest.mark.parametrize("marker", [
    "def test_training():\n    pass\n", "    async def test_step(self):\n", "class TrainerTest(object):\n",
    "import unittest\n", "from absl.testing import absltest\n", "class T(tf.test.TestCase):\n"])
def test_each_kind_of_test_code_is_told(tmp_path, marker):
    path = tmp_path / "checks.py"
    path.write_text(f"import tensorflow as tf\nlatest = 'protest'\n{marker}")
    assert distribution._ProjectScan()._read(path).defines_tests
    path.write_text("import tensorflow as tf\nlatest = 'protest'  # a Test of nothing; def test\n")
    assert not distribution._ProjectScan()._read(path).defines_tests
