"""What the file alone cannot tell: factories in other project modules (jedi) and the Keras
version of the user's environment (package metadata). Stand-in packages live in tmp_path."""

from __future__ import annotations

import dataclasses
import os
import textwrap
import time
import types

from parso.cache import parser_cache

from tfscope.config import DEFAULT_SETTINGS, Settings
from tfscope.engine import analyze, detect_keras_version
from tfscope.resolve.project import ProjectResolver, package_inits
from tfscope.source import Source

TRAIN = """\
import tensorflow as tf
from mypkg.models import build_model

strategy = tf.distribute.MirroredStrategy()
model = build_model()
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))


def project_with_factory(tmp_path, factory_body: str):
    write(tmp_path / "mypkg" / "__init__.py", "")
    write(tmp_path / "mypkg" / "models.py", factory_body)
    write(tmp_path / "train.py", TRAIN)
    return tmp_path / "train.py"


def analyze_file(path, project=None, settings=DEFAULT_SETTINGS):
    return analyze(Source(path.read_text(), path=str(path)), settings, project)


FACTORY = """\
    from tensorflow import keras

    def build_model(units=10):
        return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(units)])
    """


def test_a_factory_defined_at_the_top_of_a_project_module_is_found_without_jedi(tmp_path):
    """`from mypkg.models import build_model` and `mypkg/models.py` defines it: read from the file."""
    train = project_with_factory(tmp_path, FACTORY)
    resolver = ProjectResolver(root=str(tmp_path))

    first = analyze_file(train, resolver)
    assert [(d.code, first.source.position(d.start)[0] + 1) for d in first.diagnostics] == [("TFS001", 5)]
    assert "build_model()" in first.diagnostics[0].message
    assert not first.unresolved and not resolver.has_pending


def test_a_long_lived_resolver_sees_a_factory_move_and_a_shim_change_in_another_module(tmp_path):
    """The language server keeps one resolver per folder for hours: an edit of `mypkg/models.py`
    that moves `build_model` down, or of a backend shim that swaps the Keras it hands on, is seen
    at the next analysis, not only after a restart."""
    train = project_with_factory(tmp_path, FACTORY)
    resolver = ProjectResolver(root=str(tmp_path))
    assert [d.code for d in analyze_file(train, resolver).diagnostics] == ["TFS001"]

    models = tmp_path / "mypkg" / "models.py"
    write(models, "\n\n\n# helpers moved below\n" + textwrap.dedent(FACTORY).replace("units=10", "units=12"))
    os.utime(models, ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))  # a new mtime on any file system
    moved = analyze_file(train, resolver)
    assert [d.code for d in moved.diagnostics] == ["TFS001"] and not resolver.has_pending

    write(tmp_path / "mypkg" / "backend.py", "import tensorflow.keras as keras\n")
    importer = str(tmp_path / "mypkg" / "layers.py")
    assert resolver.reexported_library(importer, "mypkg.backend", "keras") == "tensorflow.keras"
    write(tmp_path / "mypkg" / "backend.py", "import tf_keras as keras\n")
    os.utime(tmp_path / "mypkg" / "backend.py", ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert resolver.reexported_library(importer, "mypkg.backend", "keras") == "tf_keras"


def test_a_shim_hands_on_a_library_only_when_imports_alone_bind_the_name(tmp_path):
    """The first of the imports that bind the name (branches and `try` included); nothing when
    another statement binds it too, or a `*` import may."""
    importer = str(tmp_path / "mypkg" / "layers.py")
    shims = {
        "try:\n    import tensorflow.keras as keras\nexcept ImportError:\n    import keras\n": "tensorflow.keras",
        "import os\nfrom tensorflow import keras as K, nn\n": None,  # binds `K`, not `keras`
        "from tensorflow import keras\nkeras = None\n": None,
        "from tensorflow import keras\nfrom helpers import *\n": None,
        "import tensorflow.keras\n": "tensorflow",  # binds `tensorflow`
        "from tensorflow import keras\ndef layer(keras=keras):\n    keras = keras.layers\n": "tensorflow.keras",
        "from tensorflow import keras\nclass keras:\n    pass\n": None,
    }
    for index, (shim, expected) in enumerate(shims.items()):
        module = f"backend{index}"
        write(tmp_path / "mypkg" / f"{module}.py", shim)
        name = "tensorflow" if shim == "import tensorflow.keras\n" else "keras"
        assert ProjectResolver(root=str(tmp_path)).reexported_library(importer, f"mypkg.{module}", name) == expected, shim


def test_a_factory_of_an_imported_submodule_is_found_without_jedi(tmp_path):
    """`from mypkg import models` then `models.build_model()`: the package's `__init__.py` binds no
    `models`, so Python imports the submodule `mypkg/models.py`, which defines the factory."""
    train = project_with_factory(tmp_path, FACTORY)
    write(train, TRAIN.replace("from mypkg.models import build_model", "from mypkg import models")
          .replace("model = build_model()", "model = models.build_model()"))
    resolver = ProjectResolver(root=str(tmp_path))

    first = analyze_file(train, resolver)
    assert [(d.code, first.source.position(d.start)[0] + 1) for d in first.diagnostics] == [("TFS001", 5)]
    assert not first.unresolved and not resolver.has_pending


def test_a_module_level_object_is_found_without_jedi_and_packages_run_their_init_first(tmp_path):
    """`from mypkg.registry import REGISTRY`: the one plain assignment that binds it at the top of
    `mypkg/registry.py` is its definition; a second binding leaves it to jedi. Python runs
    `mypkg/__init__.py` before any module of the package."""
    write(tmp_path / "mypkg" / "__init__.py", "import mypkg.losses\n")
    write(tmp_path / "mypkg" / "registry.py", """\
        class Registry:
            pass


        REGISTRY = Registry()
        """)
    write(tmp_path / "mypkg" / "twice.py", "TABLE = {}\nTABLE = dict(TABLE)\n")
    importer = str(tmp_path / "train.py")
    resolver = ProjectResolver(root=str(tmp_path))

    found = resolver.lookup(importer, "mypkg.registry", "REGISTRY")
    assert found is not None and found[0].line == 5
    assert resolver.lookup(importer, "mypkg.twice", "TABLE") is None and resolver.has_pending
    assert package_inits(str(tmp_path / "mypkg" / "registry.py")) == [str(tmp_path / "mypkg" / "__init__.py")]
    assert package_inits(str(tmp_path / "mypkg" / "__init__.py")) == []
    assert resolver.module_path(importer, "mypkg.registry") == str(tmp_path / "mypkg" / "registry.py")


def test_a_name_the_package_binds_wins_over_its_submodule_and_is_left_to_jedi(tmp_path):
    """`mypkg/__init__.py` binds `models` itself (here to another module): the submodule file is not
    what `from mypkg import models` gives, so the look-up waits for jedi instead of guessing."""
    train = project_with_factory(tmp_path, FACTORY)
    write(tmp_path / "mypkg" / "__init__.py", "from mypkg import zoo as models\n")
    write(tmp_path / "mypkg" / "zoo.py", "def build_model():\n    return None\n")
    write(train, TRAIN.replace("from mypkg.models import build_model", "from mypkg import models")
          .replace("model = build_model()", "model = models.build_model()"))
    resolver = ProjectResolver(root=str(tmp_path))

    first = analyze_file(train, resolver)
    assert first.diagnostics == [] and first.unresolved and resolver.has_pending


LIBRARY_USER = """\
import tensorflow as tf
from somelib.models import build_model

strategy = tf.distribute.MirroredStrategy()
model = build_model()
with strategy.scope():
    model.compile(optimizer="adam", loss="mse")
"""


def test_an_import_no_folder_of_the_project_has_is_answered_without_jedi(tmp_path, monkeypatch):
    """`somelib` is in no folder the import searches and on no path the interpreter adds: jedi could
    only find it installed, which is never the project's, or nowhere. So no look-up is pending."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    write(tmp_path / "train.py", LIBRARY_USER)
    resolver = ProjectResolver(root=str(tmp_path))
    analysis = analyze_file(tmp_path / "train.py", resolver)
    assert not analysis.unresolved and not resolver.has_pending


def test_an_import_the_interpreter_path_or_another_environment_may_hold_is_left_to_jedi(tmp_path, monkeypatch):
    """A folder `PYTHONPATH` or an editable install adds, another active environment, a configured
    interpreter: jedi may find the project's code there, so it is asked."""
    from tfscope.resolve import project

    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    write(tmp_path / "proj" / "train.py", LIBRARY_USER)
    write(tmp_path / "elsewhere" / "somelib" / "__init__.py", "")
    train = tmp_path / "proj" / "train.py"
    monkeypatch.setattr(project, "_added_paths", lambda: (str(tmp_path / "elsewhere"),))
    resolver = ProjectResolver(root=str(tmp_path / "proj"))
    assert analyze_file(train, resolver).unresolved and resolver.has_pending

    monkeypatch.setattr(project, "_added_paths", lambda: ())
    for environment in ({"VIRTUAL_ENV": str(tmp_path / "venv")}, {"interpreter": str(tmp_path / "venv" / "bin" / "python")}):
        for variable, value in environment.items():
            if variable == "VIRTUAL_ENV":
                monkeypatch.setenv(variable, value)
        resolver = ProjectResolver(root=str(tmp_path / "proj"), interpreter=environment.get("interpreter"))
        assert analyze_file(train, resolver).unresolved and resolver.has_pending, environment
        monkeypatch.delenv("VIRTUAL_ENV", raising=False)


def test_a_re_exported_factory_is_found_after_jedi_answers(tmp_path):
    """`from mypkg import build_model`, which `mypkg/__init__.py` imports from `mypkg.models`: the
    package's own file does not define it, so jedi follows the import, off the analysis path."""
    train = project_with_factory(tmp_path, FACTORY)
    write(tmp_path / "mypkg" / "__init__.py", "from mypkg.models import build_model\n")
    write(train, TRAIN.replace("from mypkg.models import build_model", "from mypkg import build_model"))
    resolver = ProjectResolver(root=str(tmp_path))

    first = analyze_file(train, resolver)
    assert first.diagnostics == [] and first.unresolved, "the static pass must not wait for jedi"

    assert resolver.resolve_pending()
    second = analyze_file(train, resolver)
    assert [(d.code, second.source.position(d.start)[0] + 1) for d in second.diagnostics] == [("TFS001", 5)]
    assert "build_model()" in second.diagnostics[0].message
    assert not second.unresolved


def test_factory_that_enters_the_scope_itself_stays_quiet(tmp_path):
    train = project_with_factory(tmp_path, """\
        import tensorflow as tf
        from tensorflow import keras

        def build_model(strategy=None):
            strategy = strategy or tf.distribute.get_strategy()
            with strategy.scope():
                return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        """)
    write(train, TRAIN.replace("model = build_model()", "model = build_model(strategy)"))
    resolver = ProjectResolver(root=str(tmp_path))
    assert analyze_file(train, resolver).diagnostics == []


def test_unknown_project_import_is_not_guessed(tmp_path):
    train = project_with_factory(tmp_path, "def unrelated():\n    return 1\n")
    resolver = ProjectResolver(root=str(tmp_path))
    analyze_file(train, resolver)
    resolver.resolve_pending()
    assert analyze_file(train, resolver).diagnostics == []


def fake_environment(tmp_path, **versions: str) -> str:
    site_packages = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    for distribution, version in versions.items():
        info = site_packages / f"{distribution}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n")
    site_packages.mkdir(parents=True, exist_ok=True)
    interpreter = tmp_path / "venv" / "bin" / "python"
    interpreter.parent.mkdir(parents=True)
    interpreter.write_text("")  # never run: the metadata is read from disk
    return str(interpreter)


PLAIN = Source("import tensorflow as tf\n")


def test_keras_version_comes_from_the_installed_packages(tmp_path):
    keras2 = fake_environment(tmp_path / "a", tensorflow="2.15.1", keras="2.15.0")
    keras3 = fake_environment(tmp_path / "b", tensorflow="2.17.0", keras="3.6.0")
    old_tf = fake_environment(tmp_path / "c", tensorflow="2.12.0")
    assert detect_keras_version(PLAIN, Settings(interpreter=keras2)) == 2
    assert detect_keras_version(PLAIN, Settings(interpreter=keras3)) == 3
    assert detect_keras_version(PLAIN, Settings(interpreter=old_tf)) == 2
    assert detect_keras_version(PLAIN, Settings()) == 3


def test_the_file_and_an_explicit_setting_beat_the_environment(tmp_path):
    keras3 = fake_environment(tmp_path, keras="3.6.0")
    legacy = Source('import os\nos.environ["TF_USE_LEGACY_KERAS"] = "1"\nimport tensorflow as tf\n')
    assert detect_keras_version(legacy, Settings(interpreter=keras3)) == 2
    assert detect_keras_version(Source("import tf_keras\n"), Settings(keras_version="3")) == 2
    assert detect_keras_version(PLAIN, Settings(interpreter=keras3, keras_version="2")) == 2


def test_cli_follows_factories_into_other_modules(tmp_path):
    import subprocess
    import sys

    project_with_factory(tmp_path, """\
        from tensorflow import keras

        def build_model():
            return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        """)
    run = subprocess.run([sys.executable, "-m", "tfscope", "check", "--output-format", "concise", "train.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 1, run.stdout + run.stderr
    assert "train.py:5:9: TFS001" in run.stdout


def test_installed_code_is_never_taken_for_the_project(tmp_path):
    """jedi follows `pip.main` into the environment's pip; interpreting installed libraries is not
    tfscope's job, and two notebooks that call `pip.main` kept `check` busy for minutes."""
    from tfscope.resolve import project

    def jedi_name(path):
        return types.SimpleNamespace(module_path=path, type="function", line=3)

    installed = os.path.join("env", "lib", "python3.11", "site-packages", "pip", "__init__.py")
    assert project._definition([jedi_name(installed)]) is None
    assert project._definition([jedi_name(os.path.join("usr", "lib", "python3", "dist-packages", "rich.py"))]) is None
    own = os.path.join("project", "packages", "installer.py")  # a folder merely named like one is the project's
    assert project._definition([jedi_name(own)]) == project.Definition(own, 3)


def test_cli_does_not_interpret_installed_libraries(tmp_path):
    import subprocess
    import sys

    (tmp_path / ".git").mkdir()
    for name in ("first.py", "second.py"):
        (tmp_path / name).write_text(textwrap.dedent("""\
            import pip


            def import_or_install(package):
                try:
                    __import__(package)
                except ImportError:
                    pip.main(["install", package])


            import_or_install("smdebug")
            """))
    # a hang, not a speed: before the fix this ran for minutes
    run = subprocess.run([sys.executable, "-m", "tfscope", "check", "."], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr


def test_a_module_beside_the_script_is_found_from_any_working_folder(tmp_path):
    """`python proj/train.py` puts proj/ on sys.path: `from models import ...` there resolves
    when tfscope checks `proj/` from its parent too."""
    import subprocess
    import sys

    write(tmp_path / "pyproject.toml", "[tool.tfscope]\nignore = []\n")  # the project root is the parent
    write(tmp_path / "models" / "__init__.py", "")  # a package at the root that must not shadow proj/models.py
    write(tmp_path / "proj" / "models.py", """\
        from tensorflow import keras

        def build_classifier():
            return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        """)
    write(tmp_path / "proj" / "train.py", TRAIN.replace("from mypkg.models import build_model",
                                                         "from models import build_classifier as build_model"))
    run = subprocess.run([sys.executable, "-m", "tfscope", "check", "--output-format", "concise", "proj"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "train.py:5:9: TFS001" in run.stdout, run.stdout + run.stderr


def test_a_repository_checked_from_outside_resolves_from_its_own_root(tmp_path):
    """`tfscope check ../clone/scripts` from another folder: the clone's package at its root
    resolves as when the check runs inside the clone (no setting names a root)."""
    import subprocess
    import sys

    clone = tmp_path / "clone"
    (clone / ".git").mkdir(parents=True)
    write(clone / "mypkg" / "__init__.py", "")
    write(clone / "mypkg" / "models.py", """\
        from tensorflow import keras

        def build_model():
            return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        """)
    write(clone / "scripts" / "train.py", TRAIN)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    run = subprocess.run([sys.executable, "-m", "tfscope", "check", "--output-format", "concise",
                          str(clone / "scripts")], cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert "train.py:5:9: TFS001" in run.stdout, run.stdout + run.stderr


# ------------------------------------------------- Keras version: environment and declared dependencies

COMPILE_OUTSIDE = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
model.compile(optimizer="adam", loss="mse")
"""


def script_in(folder, **files):
    for name, text in files.items():
        write(folder / name, text)
    write(folder / "src" / "train.py", COMPILE_OUTSIDE)
    return Source(COMPILE_OUTSIDE, path=str(folder / "src" / "train.py"))


def test_active_environment_is_read_when_no_interpreter_is_configured(tmp_path, monkeypatch):
    keras2 = fake_environment(tmp_path, tensorflow="2.15.1")
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / "venv"))
    assert detect_keras_version(PLAIN, Settings()) == 2
    assert detect_keras_version(PLAIN, Settings(interpreter=keras2.replace("venv", "missing"))) == 3


def test_declared_dependencies_tell_the_keras_version(tmp_path, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    cases = {
        "pins": ({"requirements.txt": "numpy\ntensorflow==2.15.0  # the last Keras 2\n"}, 2),
        "upper bound": ({"requirements-gpu.txt": "tensorflow[and-cuda]>=2.10,<2.16\n"}, 2),
        "tf-keras": ({"requirements.txt": "tensorflow>=2.16\ntf-keras\n"}, 3),  # the first match decides
        "legacy keras": ({"requirements.txt": "tf_keras==2.16.0\n"}, 2),
        "keras 2": ({"constraints.txt": "keras<3\n"}, 2),
        "new tensorflow": ({"requirements.txt": "tensorflow>=2.16.1\n"}, 3),
        "pyproject": ({"pyproject.toml": '[project]\nname = "x"\ndependencies = ["tensorflow~=2.13.0"]\n'}, 2),
        "poetry": ({"pyproject.toml": '[tool.poetry.dependencies]\npython = "^3.10"\ntensorflow = "~2.14"\n'}, 2),
        "setup.py": ({"setup.py": 'from setuptools import setup\nsetup(install_requires=["tensorflow==2.12.*"])\n'}, 2),
        "conda": ({"environment.yml": "dependencies:\n  - python=3.10\n  - tensorflow=2.15\n"}, 2),
        "conda export": ({"environment.yml": "name: tf2\ndependencies:\n  - tensorflow=2.1.0=gpu_py37h7db9008_0\n"}, 2),
        "conda, any name": ({"tfrl-cookbook.yml": "name: tfrl\nchannels:\n  - conda-forge\ndependencies:\n"
                             "  - pip:\n    - tensorflow==2.2.0\n"}, 2),
        "not conda": ({"model-config.yaml": "layers:\n  - tensorflow==2.2.0\n"}, 3),  # no `dependencies:`
        "pixi in pyproject": ({"pyproject.toml": '[project]\nname = "x"\ndependencies = ["numpy"]\n'
                               '[tool.pixi.dependencies]\ntensorflow = "==2.12.1"\n'}, 2),
        "pixi feature": ({"pixi.toml": '[workspace]\nname = "x"\n[feature.gpu.pypi-dependencies]\n'
                          'tensorflow = { version = ">=2.10,<2.16" }\n'}, 2),
        "pixi conda pin": ({"pixi.toml": '[dependencies]\ntensorflow = "=2.13"\n'}, 2),
        "Pipfile": ({"Pipfile": '[packages]\nnumpy = "*"\ntensorflow = "==2.12.0"\n'}, 2),
        "Pipfile bare version": ({"Pipfile": '[[source]]\nname = "pypi"\n[packages]\ntensorflow = "2.2"\n'}, 2),
        "Pipfile table": ({"Pipfile": '[dev-packages]\ntensorflow = {version = "<2.16", index = "pypi"}\n'}, 2),
        "Pipfile any": ({"Pipfile": '[packages]\ntensorflow = "*"\n'}, 3),
        "dependency groups": ({"pyproject.toml": '[dependency-groups]\ntrain = ["tensorflow==2.14.1"]\n'}, 2),
        "unbounded": ({"requirements.txt": "tensorflow>=2.4\n"}, 3),  # admits both: the default
        "an old pin": ({"requirements.txt": "tensorflow_gpu==2.2.0\n"}, 2),  # older than every probe
        "tensorflow 1": ({"requirements.txt": "tensorflow==1.15.4\n"}, 3),  # TF1 code's pin: no evidence
        # TensorFlow Addons never ran on Keras 3; a `keras` requirement is read first all the same
        "addons": ({"requirements.txt": "tensorflow>=2.4\ntensorflow-addons\n"}, 2),
        "addons in setup.py": ({"setup.py": 'setup(install_requires=["tensorflow_addons>=0.11"])\n'}, 2),
        "keras before addons": ({"requirements.txt": "tensorflow-addons\nkeras>=3.0\n"}, 3),
    }
    for label, (files, expected) in cases.items():
        source = script_in(tmp_path / label.replace(" ", "_"), **files)
        assert detect_keras_version(source, Settings()) == expected, label


def test_a_readme_that_names_the_tensorflow_version_is_the_last_declaration(tmp_path, monkeypatch):
    """Research code often says what it ran on only in prose: `tensorflow 2.3, TPU v3-8`."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    cases = {
        "one version": ("## Setup\nVM instance, tensorflow 2.3, TPU v3-8\n", (2, True)),
        "a pin": ("pip install tensorflow-gpu==2.13.0\n", (2, False)),
        "a 2.0 preview": ("pip install tf-nightly-gpu-2.0-preview==2.0.0.dev20190526\n", (2, True)),
        "disagreeing": ("Works with TensorFlow 2.3; tested on TensorFlow 2.16 too\n", (3, False)),  # the default
        "none": ("Uses TensorFlow 2.x and Keras\n", (3, False)),
        "capital TF": ("*Note for TF 2.1 users*: pin tensorflow_addons==0.9.1\n", (2, True)),
        "a lower bound": ("Needs TensorFlow 2.4+ (or TF 2.5 or later)\n", (3, False)),  # admits every later one
        "tf as a word": ("the tf 2.1 docs\n", (3, False)),  # lower-case `tf` is too common to read
    }
    for label, (readme, expected) in cases.items():
        (tmp_path / label / ".git").mkdir(parents=True)
        source = script_in(tmp_path / label, **{"README.md": readme})
        found = keras_version.detect(source.code, source.path, "", None)
        assert (found.major, found.legacy_optimizers) == expected, label
    requirements = script_in(tmp_path / "one version", **{"requirements.txt": "tensorflow==2.15.0\n"})
    assert keras_version.detect(requirements.code, requirements.path, "", None).evidence.startswith("`requirements.txt`")
    # a declared TensorFlow Addons names no TensorFlow: the README's version tells the optimizers' era
    addons = script_in(tmp_path / "capital TF", **{"setup.py": 'setup(extras_require={"tf": ["tensorflow_addons"]})\n'})
    found = keras_version.detect(addons.code, addons.path, "", None)
    assert (found.major, found.legacy_optimizers) == (2, True) and found.evidence.startswith("`README.md`")
    # and so does the code (`lr=` only OptimizerV2 reads); the package alone says Keras 2 only
    (tmp_path / "addons" / ".git").mkdir(parents=True)
    alone = script_in(tmp_path / "addons", **{"requirements.txt": "tensorflow-addons==0.16.1\n"})
    found = keras_version.detect(alone.code, alone.path, "", None)
    assert (found.major, found.legacy_optimizers) == (2, False) and "tensorflow-addons" in found.evidence
    code = alone.code + "optimizer = tf.keras.optimizers.Adam(lr=1e-3)\n"
    assert keras_version.detect(code, alone.path, "", None).legacy_optimizers


def test_a_keras_2_only_api_in_the_code_means_keras_2(monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    legacy = Source("import tensorflow as tf\nopt = tf.keras.optimizers.legacy.Adam()\n")
    assert detect_keras_version(legacy, Settings()) == 2
    estimator = Source("import tensorflow as tf\nconfig = tf.estimator.RunConfig(train_distribute=None)\n")
    assert detect_keras_version(estimator, Settings()) == 2  # tf.estimator went with TensorFlow 2.16
    # Keras 3 has no `experimental` namespace; TensorFlow's own (`tf.data.experimental`) says nothing
    for experimental in ("from tensorflow.keras.layers.experimental import preprocessing",
                         "schedule = tf.keras.experimental.CosineDecay(1e-3, 1000)",
                         "history = model.fit_generator(train_gen, epochs=3)"):  # Keras 3 models have none
        assert detect_keras_version(Source(f"import tensorflow as tf\n{experimental}\n"), Settings()) == 2
    assert detect_keras_version(Source("import tensorflow as tf\nAUTO = tf.data.experimental.AUTOTUNE\n"),
                                Settings()) == 3


def test_importing_tensorflow_addons_means_keras_2_but_a_commented_import_does_not(monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    for imported in ("import tensorflow_addons as tfa", "from tensorflow_addons.optimizers import AdamW",
                     "    import numpy as np, tensorflow_addons"):
        assert detect_keras_version(Source(f"import tensorflow as tf\n{imported}\n"), Settings()) == 2, imported
    for mentioned in ("# import tensorflow_addons as tfa", "print('pip install tensorflow_addons')"):
        assert detect_keras_version(Source(f"import tensorflow as tf\n{mentioned}\n"), Settings()) == 3, mentioned


def test_hugging_face_tf_models_mean_keras_2(monkeypatch):
    """transformers' TF models build on `tf_keras` and refuse Keras 3; its tokenizers say nothing."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    for imported in ("from transformers import TFBertModel, BertTokenizer",
                     "from transformers import (\n    AutoTokenizer,\n    TFAutoModel,\n)",
                     "import transformers\nencoder = transformers.TFAutoModel.from_pretrained('roberta-base')"):
        assert detect_keras_version(Source(f"import tensorflow as tf\n{imported}\n"), Settings()) == 2, imported
    for other in ("from transformers import AutoTokenizer\nclass TFRecordWriter: pass",
                  "# from transformers import TFBertModel"):
        assert detect_keras_version(Source(f"import tensorflow as tf\n{other}\n"), Settings()) == 3, other


def test_the_experimental_mixed_precision_api_means_optimizer_v2(monkeypatch):
    """TensorFlow 2.9 removed `tf.keras.mixed_precision.experimental`: the code runs before 2.11."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    uses = ("opt = tf.keras.mixed_precision.experimental.LossScaleOptimizer(opt, 'dynamic')",
            "from tensorflow.keras.mixed_precision import experimental as mixed_precision")
    found = [keras_version.detect(f"import tensorflow as tf\n{line}\n", None, "", None) for line in uses]
    assert [(v.major, v.legacy_optimizers) for v in found] == [(2, True), (2, True)]
    stable = keras_version.detect("import tensorflow as tf\ntf.keras.mixed_precision.set_global_policy('mixed_float16')\n",
                                  None, "", None)
    assert (stable.major, stable.legacy_optimizers) == (3, False)


def test_tensorflow_1_apis_mean_optimizer_v2_unless_tf_is_compat_v1(monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    tf1 = "import tensorflow as tf\ntf.enable_eager_execution()\nopt = tf.train.AdamOptimizer(0.1)\n"
    compat = tf1.replace("import tensorflow as tf", "import tensorflow.compat.v1 as tf")
    found = [keras_version.detect(code, None, setting, None) for code in (tf1, compat) for setting in ("", "2")]
    assert [(v.major, v.legacy_optimizers) for v in found] == [(2, True), (2, True), (3, False), (2, False)]
    assert found[0].evidence == "the file uses TensorFlow 1 APIs"


def test_tensorflow_1_code_builds_graphs_unless_it_enables_eager_execution(monkeypatch):
    """`tf.set_random_seed` exists only in TensorFlow 1, which builds graphs unless the program
    enables eager execution: the version says so, for the rules whose answer depends on it."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    graphs = "import tensorflow as tf\ntf.set_random_seed(42)\n"
    eager = graphs + "tf.enable_eager_execution()\n"
    tf2 = "import tensorflow as tf\ntf.random.set_seed(42)\n"
    found = {name: keras_version.detect(code, None, "", None)
             for name, code in (("graphs", graphs), ("eager", eager), ("tf2", tf2))}
    assert [(found[name].legacy_optimizers, found[name].graph_mode) for name in ("graphs", "eager", "tf2")] == [
        (True, True), (True, False), (False, False)]
    assert keras_version.detect(graphs, None, "2", None).graph_mode


def test_a_file_that_asserts_its_tensorflow_version_runs_only_under_it(monkeypatch):
    """A book's notebooks stop at once under another TensorFlow (`assert parse_version(
    tf.__version__) < parse_version("2.4.0")`): that version decides, before anything declared."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    header = "import tensorflow as tf\nfrom packaging.version import parse as parse_version\n"
    cases = {
        'assert parse_version(tf.__version__) < parse_version("2.4.0"), "needs TF 2.3"\n': (2, True),
        "assert tf.__version__ <= '2.15.1'\n": (2, False),
        "assert tf.__version__.startswith('2.10')\n": (2, True),
        "assert tf.__version__.startswith('2.3.')\n": (2, True),
        "assert tf.__version__.startswith('2.1')\n": (3, False),  # also 2.10 to 2.19
        "assert tf.__version__.startswith('2..3')\n": (3, False),  # no version at all: nothing said
        "assert tensorflow.__version__ == '2.13.0'\n": (2, False),
        "assert tf.version.VERSION.startswith('2.17')\n": (3, False),
        # a lower bound admits every later TensorFlow: nothing said
        "assert parse_version(tf.__version__) >= parse_version('2.4')\n": (3, False),
        "assert tf.__version__.startswith('2.')\n": (3, False),
        # a test of the version is no assertion: both branches run somewhere
        "if tf.__version__ < '2.11':\n    pass\n": (3, False),
    }
    for line, expected in cases.items():
        found = keras_version.detect(header + line, None, "", None)
        assert (found.major, found.legacy_optimizers) == expected, line
    found = keras_version.detect(header + "assert tf.__version__ < '2.4'\n", None, "", None)
    assert found.evidence == "the file asserts TensorFlow < 2.4"


def test_a_version_dependent_finding_names_its_evidence(tmp_path, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    keras2 = script_in(tmp_path / "old", **{"requirements.txt": "tensorflow==2.15.1\n"})
    assert [d.code for d in analyze(keras2).diagnostics] == []  # Keras 2 enters the model's strategy itself
    keras3 = script_in(tmp_path / "new", **{"requirements.txt": "tensorflow==2.17.0\n"})
    (finding,) = analyze(keras3).diagnostics
    assert finding.code == "TFS007" and "`requirements.txt` declares `tensorflow==2.17.0`" in finding.message


def test_a_dockerfile_image_pins_tensorflow_and_its_optimizers(tmp_path, monkeypatch):
    """SEED RL's shape: the image in docker/ pins TF 2.4, whose OptimizerV2 creates its variables
    at the first step, in the replica: an optimizer built outside and stepped in `run` is fine."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    step = """\
import tensorflow as tf

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    weights = tf.Variable(1.0)
optimizer = tf.keras.optimizers.SGD(0.1)


@tf.function
def apply_gradients(gradient):
    optimizer.apply_gradients([(gradient, weights)])


strategy.run(apply_gradients, (tf.constant(1.0),))
"""
    for folder, image, expected in (("old", "2.4.1-gpu", []), ("new", "2.13.0-gpu", ["TFS002"])):
        write(tmp_path / folder / "docker" / "Dockerfile.gpu", f"FROM tensorflow/tensorflow:{image}\nRUN pip install gin-config\n")
        write(tmp_path / folder / "train.py", step)
        source = Source(step, path=str(tmp_path / folder / "train.py"))
        assert detect_keras_version(source, Settings()) == 2
        assert [d.code for d in analyze(source).diagnostics] == expected, folder


def test_installed_packages_are_found_under_every_name_and_folder(tmp_path):
    """tensorflow-cpu in Debian's dist-packages, keras-nightly: read through importlib.metadata."""
    def environment(folder, site, distribution, version):
        info = tmp_path / folder / "lib" / "python3.11" / site / f"{distribution}-{version}.dist-info"
        info.mkdir(parents=True)
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: {version}\n")
        interpreter = tmp_path / folder / "bin" / "python"
        interpreter.parent.mkdir(parents=True)
        interpreter.write_text("")
        return str(interpreter)

    assert detect_keras_version(PLAIN, Settings(interpreter=environment("a", "dist-packages", "tensorflow_cpu", "2.15.0"))) == 2
    assert detect_keras_version(PLAIN, Settings(interpreter=environment("b", "site-packages", "keras_nightly", "3.7.0.dev2024"))) == 3


def test_a_model_class_whose_base_is_in_a_third_module(tmp_path):
    """fastMRI's shape: XPDNet(CrossDomainNet), CrossDomainNet(keras.Model), three modules apart;
    its first call outside the scope, before it is trained, is TFS015."""
    import subprocess
    import sys

    write(tmp_path / "nets" / "__init__.py", "")
    write(tmp_path / "nets" / "base.py", """\
        import tensorflow as tf

        class CrossDomainNet(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.kspace_net = tf.keras.layers.Dense(4)

            def call(self, inputs):
                return self.kspace_net(inputs)
        """)
    write(tmp_path / "nets" / "xpd.py", """\
        from nets.base import CrossDomainNet

        class XPDNet(CrossDomainNet):
            pass
        """)
    write(tmp_path / "train.py", """\
        import tensorflow as tf
        from nets.xpd import XPDNet

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = XPDNet()
            model.compile(optimizer=tf.keras.optimizers.Adam(), loss="mse")
        model(tf.zeros((1, 4)))
        model.fit(tf.zeros((8, 4)), tf.zeros((8, 4)), epochs=1)
        """)
    run = subprocess.run([sys.executable, "-m", "tfscope", "check", "--output-format", "concise", "train.py"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert "train.py:8:1: TFS015" in run.stdout, run.stdout + run.stderr


def test_an_op_in_another_module_before_a_multi_worker_strategy_is_named_by_its_call(tmp_path):
    write(tmp_path / "tf_utils.py", """\
        import tensorflow as tf

        def allow_memory_growth():
            for gpu in tf.config.list_physical_devices("GPU"):
                tf.config.experimental.set_memory_growth(gpu, True)
            print(len(tf.config.list_logical_devices("GPU")), "logical GPUs")
        """)
    write(tmp_path / "train.py", """\
        import tensorflow as tf
        from tf_utils import allow_memory_growth

        allow_memory_growth()
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        """)
    resolver = ProjectResolver(root=str(tmp_path))
    analysis = analyze_file(tmp_path / "train.py", resolver)
    [finding] = analysis.diagnostics
    assert (finding.code, analysis.source.position(finding.start)[0] + 1) == ("TFS014", 5)
    [(start, _, _)] = [(r.start, r.end, r.message) for r in finding.related]
    assert analysis.source.position(start)[0] + 1 == 4, "the other end is the call in this file"


def test_a_keras_2_setting_still_learns_the_optimizer_era_from_the_project(tmp_path, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    old = script_in(tmp_path / "old", **{"requirements.txt": "tensorflow-gpu==2.4.1\n"})
    new = script_in(tmp_path / "new", **{"requirements.txt": "tensorflow==2.13.0\n"})
    detected = [keras_version.detect(s.code, s.path, "2", None) for s in (old, new)]
    assert [(v.major, v.legacy_optimizers) for v in detected] == [(2, True), (2, False)]


def test_import_keras_names_no_version_before_what_the_project_declares(tmp_path, monkeypatch):
    """`keras` 2.4-2.15 is Keras 2: `import keras` says Keras 3 only when nothing else speaks."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    standalone = "import keras\nimport tensorflow as tf\n"
    pinned = script_in(tmp_path / "pinned", **{"requirements.txt": "tensorflow==2.9.1\n"})
    pinned = Source(standalone + pinned.code, path=pinned.path)
    assert detect_keras_version(pinned, Settings()) == 2
    assert detect_keras_version(Source(standalone), Settings(keras_version="2")) == 2
    legacy_api = Source(standalone + "opt = tf.keras.optimizers.legacy.Adam()\n")
    assert detect_keras_version(legacy_api, Settings()) == 2
    assert detect_keras_version(Source(standalone), Settings()) == 3


def test_experimental_run_v2_in_another_module_dates_the_optimizers(tmp_path):
    """strutive07's shape: the trainer module steps through `experimental_run_v2` (TF 2.0-2.3), so
    the optimizer the script builds outside the scope is an OptimizerV2 that makes its slots in
    the replicas."""
    write(tmp_path / "trainer.py", """\
        import tensorflow as tf

        class Trainer:
            def __init__(self, model, optimizer, strategy):
                self.model, self.optimizer, self.strategy = model, optimizer, strategy

            def step(self, x, y):
                with tf.GradientTape() as tape:
                    loss = tf.reduce_mean(tf.square(self.model(x) - y))
                grads = tape.gradient(loss, self.model.trainable_variables)
                self.optimizer.apply_gradients(zip(grads, self.model.trainable_variables))

            def train(self, dataset):
                for x, y in dataset:
                    self.strategy.experimental_run_v2(self.step, args=(x, y))
        """)
    write(tmp_path / "train.py", """\
        import tensorflow as tf
        from trainer import Trainer

        strategy = tf.distribute.MirroredStrategy()
        with strategy.scope():
            model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
        optimizer = tf.keras.optimizers.Adam()
        Trainer(model, optimizer, strategy).train(tf.data.Dataset.range(4))
        """)
    resolver = ProjectResolver(root=str(tmp_path))
    settings = dataclasses.replace(DEFAULT_SETTINGS, keras_version="2")
    assert analyze_file(tmp_path / "train.py", resolver, settings).diagnostics == []
    (tmp_path / "trainer.py").write_text((tmp_path / "trainer.py").read_text().replace("experimental_run_v2", "run"))
    resolver = ProjectResolver(root=str(tmp_path))
    assert [d.code for d in analyze_file(tmp_path / "train.py", resolver, settings).diagnostics] == ["TFS002"]


def test_tensorflow_1_apis_in_a_called_module_date_the_optimizers(tmp_path):
    """sagemaker-debugger's shape: a test calls a helper of the TF1 test suite (`tf.train.AdamOptimizer`,
    `tf.enable_eager_execution`), so the process runs TensorFlow 1, whose Keras optimizers are
    OptimizerV2: one built outside the scope and compiled inside it is fine."""
    write(tmp_path / "mirrored_helpers.py", """\
        import tensorflow as tf

        def train_model(use_keras_optimizer):
            tf.enable_eager_execution()
            strategy = tf.distribute.MirroredStrategy()
            if use_keras_optimizer:
                opt = tf.keras.optimizers.Adam()
            else:
                opt = tf.train.AdamOptimizer(0.1)
            with strategy.scope():
                model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(4,))])
                model.compile(optimizer=opt, loss="mse")
            return model
        """)
    write(tmp_path / "test_integration.py", """\
        from mirrored_helpers import train_model

        def test_keras_optimizer():
            train_model(use_keras_optimizer=True)
        """)
    settings = dataclasses.replace(DEFAULT_SETTINGS, keras_version="2")

    def findings() -> list[str]:
        resolver = ProjectResolver(root=str(tmp_path))
        return [d.code for d in analyze_file(tmp_path / "test_integration.py", resolver, settings).diagnostics]

    assert findings() == []
    helpers = tmp_path / "mirrored_helpers.py"
    helpers.write_text(helpers.read_text().replace("tf.enable_eager_execution()", "pass").replace(
        "opt = tf.train.AdamOptimizer(0.1)", "opt = tf.keras.optimizers.SGD()"))
    assert findings() == ["TFS002"]


def test_a_factory_another_module_calls_is_reported_where_this_file_enters_that_module(tmp_path):
    """ModelCompression's shape: the script hands its `create_model` to an environment class of
    the library, whose constructor calls it and evaluates the model in the strategy's scope.
    The finding lands in the script, on the call into the library, never on a line of the
    library's file under the script's name."""
    write(tmp_path / "environments.py", """\
        import tensorflow as tf


        class CompressionEnv:
            def __init__(self, create_model_func, test_ds, strategy):
                self.strategy = strategy
                self.model = create_model_func()
                with self.strategy.scope():
                    self.loss, self.accuracy = self.model.evaluate(test_ds)
        """)
    write(tmp_path / "run_env.py", """\
        import tensorflow as tf
        from environments import CompressionEnv

        strategy = tf.distribute.MirroredStrategy()


        def create_model():
            model = tf.keras.Sequential([tf.keras.Input((8,)), tf.keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss="mse", metrics=["accuracy"])
            return model


        env = CompressionEnv(create_model, tf.data.Dataset.range(4), strategy)
        """)
    resolver = ProjectResolver(root=str(tmp_path))
    analysis = analyze_file(tmp_path / "run_env.py", resolver)
    [finding] = analysis.diagnostics
    line = analysis.source.text[:finding.start].count("\n") + 1
    assert (finding.code, line) == ("TFS001", 13)
    assert analysis.source.text[finding.start:finding.end].startswith("CompressionEnv(")


def test_a_factory_is_found_however_many_modules_parso_cached_before(tmp_path):
    """parso evicts, once 600 modules are cached, every module whose file is older than ten
    minutes at each insert, under jedi's feet: the answer must not depend on what the process
    read before (a long-running server, a CLI run over a big tree)."""
    write(tmp_path / "mypkg" / "__init__.py", "from mypkg.models import *\nfrom mypkg.layers import *\n")
    write(tmp_path / "mypkg" / "models.py", """\
        from tensorflow import keras

        def build_model():
            return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
        """)
    write(tmp_path / "mypkg" / "layers.py", "def make_layer():\n    return None\n")
    write(tmp_path / "train.py", TRAIN.replace("from mypkg.models import", "from mypkg import"))
    for path in tmp_path.rglob("*.py"):
        os.utime(path, (1_600_000_000, 1_600_000_000))  # checked out from a 2020 commit
    # modules read moments ago, which parso keeps: the cache stays over its trigger
    earlier = {f"/elsewhere/module{index}.py": types.SimpleNamespace(last_used=time.time(), change_time=0)
               for index in range(700)}
    parser_cache.setdefault("earlier reads", {}).update(earlier)
    try:
        resolver = ProjectResolver(root=str(tmp_path))
        train = tmp_path / "train.py"
        analyze_file(train, resolver)
        while resolver.resolve_pending():
            pass
        assert [d.code for d in analyze_file(train, resolver).diagnostics] == ["TFS001"]
    finally:
        parser_cache.pop("earlier reads", None)


def test_a_keras_3_release_before_3_8_is_told_apart_from_later_ones(tmp_path, monkeypatch):
    """Keras 3.8 divides a default-reduction loss by the replicas (keras-team/keras#20609): only a
    declared or installed Keras 3.0-3.7 makes a custom step's default reduction wrong."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    from tfscope.resolve import keras_version

    cases = {
        "tensorflow==2.16.1\nkeras==3.3.3\n": True,
        "keras<3.8\ntensorflow==2.16.1\n": False,  # also admits Keras 2: nothing pins a Keras 3 release
        "tensorflow==2.16.1\nkeras>=3.0\n": False,
        "tensorflow==2.17.0\n": False,  # pip installs the newest Keras 3 beside it
        "keras==3.8.0\n": False,
    }
    for index, (requirements, expected) in enumerate(cases.items()):
        (tmp_path / str(index) / ".git").mkdir(parents=True)
        source = script_in(tmp_path / str(index), **{"requirements.txt": requirements})
        found = keras_version.detect(source.code, source.path, "", None)
        assert found.unscaled_replica_losses is expected, requirements
    for installed, expected in (("3.6.0", True), ("3.9.0", False)):
        interpreter = fake_environment(tmp_path / f"env-{installed}", tensorflow="2.17.0", keras=installed)
        assert keras_version.detect(PLAIN.code, None, "", interpreter).unscaled_replica_losses is expected, installed


def test_a_package_of_the_project_named_keras_is_the_project_only_for_its_own_modules(tmp_path, monkeypatch):
    """In `detector/keras/train.py`, `from keras import train_lib` is the project's package (Python finds
    the regular package `detector/keras/` first); a name it has no module for is still Keras's."""
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    monkeypatch.delenv("CONDA_PREFIX", raising=False)
    write(tmp_path / "detector" / "__init__.py", "")
    write(tmp_path / "detector" / "keras" / "__init__.py", "")
    write(tmp_path / "detector" / "keras" / "train_lib.py", """\
        import tensorflow as tf

        def build_model():
            return tf.keras.Sequential([tf.keras.Input(shape=(4,)), tf.keras.layers.Dense(1)])
        """)
    write(tmp_path / "detector" / "keras" / "train.py", """\
        import tensorflow as tf
        from keras import optimizers
        from keras import train_lib

        strategy = tf.distribute.MirroredStrategy()
        model = train_lib.build_model()
        optimizer = optimizers.Adam()
        with strategy.scope():
            model.compile(optimizer=optimizer, loss="mse")
        """)
    path = tmp_path / "detector" / "keras" / "train.py"
    project = ProjectResolver(root=str(tmp_path))
    first = analyze_file(path, project)  # the submodule's factory is read from its file, before jedi
    assert ("TFS001", 5) in {(d.code, first.source.position(d.start)[0]) for d in first.diagnostics}
    project.resolve_pending()
    analysis = analyze_file(path, project)
    assert {(d.code, analysis.source.position(d.start)[0]) for d in analysis.diagnostics} == {
        ("TFS001", 5), ("TFS002", 6)}
    assert "imports `keras`" not in analysis.model.keras_evidence
