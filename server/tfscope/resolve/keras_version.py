"""Which Keras runs a file, and the evidence for it, strongest first.

Keras 2 and 3 differ on `compile` (see tf-distribute-facts): the file itself (`tf_keras`,
`TF_USE_LEGACY_KERAS`, a notebook's recorded output: the TensorFlow it printed, the progress bar
of its `fit`), an explicit setting, the configured interpreter's installed packages, the active
environment (`VIRTUAL_ENV`, `CONDA_PREFIX`), the project's declared dependencies, a dated header
(`Last modified: 2020/07/16`), the Python a notebook's kernel ran (none before 3.9 runs Keras 3),
Keras-2-only APIs in the code, `import keras` (Keras 3 unless something above names an older
TensorFlow: the `keras` 2.4-2.15 packages are Keras 2); default Keras 3. Everything is read from
disk; nothing is imported or run.
"""

from __future__ import annotations

import datetime
import json
import os
import re
from functools import lru_cache
from typing import NamedTuple

from packaging.version import InvalidVersion, Version

from tfscope.config import toml
from tfscope.resolve.environment import (
    Installed,
    installed_for_interpreter,
    installed_in_prefix,
)
from tfscope.resolve.own_packages import sits_in_package
from tfscope.source import LAST_MODIFIED, RecordedRun
from tfscope.stamps import modified

DEFAULT = 3

# Statements at the start of a line (after "\n", "\r\n" or "\r"): only the lines holding the
# literal are tried, each once, so the search stays linear and skips most of the text.
_IN_FILE = (  # (literal on the line, or None for anywhere in the text; pattern; major; evidence)
    ("tf_keras", re.compile(r"[ \t\f]*(?:import[ \t\f][^\r\n#]*\btf_keras\b|from[ \t\f]+tf_keras\b)"),
     2, "the file imports `tf_keras`"),
    (None, re.compile(r"TF_USE_LEGACY_KERAS['\"]\s*(?:\]\s*)?[=,]\s*['\"](?:1|true|True)"),
     2, "the file sets `TF_USE_LEGACY_KERAS`"),
)
# The standalone `keras` package is Keras 3 since TensorFlow 2.16, but Keras 2 (keras 2.4-2.15)
# before it: importing it names no version, so it is read after everything that does.
# (found from the lines holding "import", far fewer than those naming keras)
_IMPORTS_KERAS = ("import", re.compile(r"[ \t\f]*(?:import[ \t\f]+keras\b(?!\.)|from[ \t\f]+keras[ \t\f]+import)"))
_LINE_BREAK = re.compile(r"[\r\n]")
# Libraries whose Keras objects are Keras 2 whatever is installed, by the line that imports them:
# TensorFlow Addons' last release (0.23) stops at TensorFlow 2.15 and its maintainers left Keras 3
# out of scope (tensorflow/addons#2870); Hugging Face's TF models build on `tf_keras` and refuse
# Keras 3 ("Your currently installed version of Keras is Keras 3, but this is not yet supported in
# Transformers", transformers/modeling_tf_utils.py)
_IMPORTS_KERAS_2_ONLY_LIBRARIES = (
    ("tensorflow_addons", re.compile(
        r"[ \t\f]*(?:import[ \t\f][^\r\n#]*\btensorflow_addons\b|from[ \t\f]+tensorflow_addons\b)"),
     "the file imports `tensorflow_addons`, which never supported Keras 3"),
    ("transformers", re.compile(  # `from transformers import TFAutoModel`, also inside parentheses
        r"[ \t\f]*from[ \t\f]+transformers\b[^\r\n#]*\bimport\b[ \t\f]*(?:\([\s\w,]*?|[^\r\n#(]*?)\bTF[A-Z]"),
     "the file imports Hugging Face TF models, which run on Keras 2 (`tf_keras`) only"),
    ("transformers.TF", re.compile(r"[^\r\n#]*\btransformers\.TF[A-Z]"),
     "the file uses Hugging Face TF models, which run on Keras 2 (`tf_keras`) only"),
)
# APIs only Keras 2 (TF <= 2.15) has: the weakest evidence, read last; searched only when the
# literal each needs is in the text (a regex that starts with \b visits every position).
# (`tf.estimator` went with TensorFlow 2.16, the release that made Keras 3 the default)
# (Keras 3 takes the loss reduction as a string: it has no `keras.losses.Reduction` enum nor `losses_utils`)
# (Keras 3's models have no `fit_generator`, `evaluate_generator` nor `predict_generator`)
_KERAS_2_ONLY_APIS = re.compile(r"\bkeras\.optimizers\.legacy\b|\bcompat\.v1\.Session\b|\btf\.Session\b"
                                r"|\b(?:tf|tensorflow)(?:\.compat\.v1)?\.estimator\."
                                r"|\bkeras\.losses\.Reduction\b|\blosses_utils\.ReductionV2\b"
                                r"|\.(?:fit|evaluate|predict)_generator\(")
_KERAS_2_ONLY_LITERALS = ("optimizers.legacy", "Session", "estimator.", "losses.Reduction", "ReductionV2",
                          "_generator(")
# Modules only Keras 2 has: Keras 3 exports its layers from `keras.layers` alone (`from
# keras.layers.convolutional import Conv2D` raises "No module named 'keras.layers.convolutional'"),
# and has no `experimental` namespace (`keras.layers.experimental.preprocessing`, `keras.experimental`)
_KERAS_2_ONLY_MODULES = re.compile(
    r"\bkeras\.(?:layers\.(?:convolutional|core|merge|pooling|recurrent|advanced_activations|embeddings)\b"
    r"|engine\b|utils\.np_utils\b|wrappers\.scikit_learn\b|(?:layers\.)?experimental\b)")
_KERAS_2_ONLY_MODULE_LITERALS = ("layers.convolutional", "layers.core", "layers.merge", "layers.pooling",
                                 "layers.recurrent", "layers.advanced_activations", "layers.embeddings",
                                 "keras.engine", "np_utils", "wrappers.scikit_learn", "keras.experimental",
                                 "layers.experimental")
# `lr=` to a Keras optimizer: only OptimizerV2 (TensorFlow before 2.11) reads it, Keras 2.11-2.15's
# optimizers ignore it and Keras 3's refuse it, so the code was written for an OptimizerV2 Keras
# (Keras' own `optimizers.` namespace: `torch.optim.SGD(params, lr=...)` is not one)
_OPTIMIZER_V2_LR = re.compile(
    r"\boptimizers\.(?:SGD|Adam|AdamW|Adamax|Nadam|RMSprop|Adagrad|Adadelta|Ftrl)\(\s*(?:[^()]*,\s*)?lr\s*=")
# The experimental mixed-precision API went with TensorFlow 2.9 ("The
# `tf.keras.mixed_precision.experimental` API has been removed", its release notes): the code runs on
# an OptimizerV2 Keras
_EXPERIMENTAL_MIXED_PRECISION = re.compile(r"\bkeras\.mixed_precision(?:\.|[ \t]+import[ \t]+)experimental\b")
# APIs only TensorFlow 1 has at the top level (TF 2 keeps them under `compat.v1`): its Keras
# optimizers are OptimizerV2, whose variables appear at the first step.
_TENSORFLOW_1_ONLY_APIS = re.compile(
    r"\b(?:tf|tensorflow)\.(?:Session\b|enable_eager_execution\b|placeholder\b|contrib\.|train\.\w+Optimizer\b"
    r"|set_random_seed\b|ConfigProto\b|global_variables_initializer\b|get_variable\b|variable_scope\b)")
_TENSORFLOW_1_ONLY_LITERALS = ("Session", "enable_eager_execution", "placeholder", "contrib.", "Optimizer",
                               "set_random_seed", "ConfigProto", "global_variables_initializer", "get_variable",
                               "variable_scope")
# TensorFlow 1 runs eagerly only when the program asks
_ENABLES_EAGER = re.compile(r"\benable_eager_execution\(|\benable_v2_behavior\(")
_COMPAT_V1_AS_TF = re.compile(r"\bimport\s+tensorflow\.compat\.v1\s+as\s+tf\b|\bfrom\s+tensorflow\.compat\s+import\s+v1\s+as\s+tf\b")
# Keras 3 saves and loads weights only as `.weights.h5`: Keras weights in a TF-checkpoint path are Keras 2.
_KERAS_WEIGHTS_CALL = re.compile(r"\b(?:load_weights|save_weights)\(|\bsave_weights_only\s*=\s*True")
_CHECKPOINT_PATH = re.compile(r"""\.ckpt['"]""")

# An `assert` on the running TensorFlow's version (`parse_version(tf.__version__) <
# parse_version("2.4")`, `tf.__version__.startswith("2.3")`): the file runs under no other.
_VERSION_ASSERTION = re.compile(
    r"[ \t\f]*assert\b[^\r\n]*?\b(?:tf|tensorflow)\.(?:__version__|version\.VERSION)\b([^\r\n]*)")
_ASSERTED_PREFIX = re.compile(r"""\.startswith\(\s*["'](\d[\d.]*)["']""")
_ASSERTED_BOUND = re.compile(r"""\)*\s*(<=|<|==)\s*[\w.]*\(?\s*["'](\d+(?:\.\d+)*)["']""")

# Files that declare a project's dependencies, nearest folder first.
_REQUIREMENT_FILE = re.compile(r"^(?:requirements|constraints)[\w.-]*\.(?:txt|in)$", re.IGNORECASE)
_DECLARATION_FILES = ("pyproject.toml", "setup.cfg", "setup.py", "Pipfile", "Pipfile.lock", "poetry.lock",
                      "pixi.toml")
# conda environments: any YAML file with a top-level `dependencies:` list (`environment.yml`,
# `Linux_environment.yml`, `tfrl-cookbook.yml`)
_YAML_FILE = re.compile(r"^[\w.-]+\.ya?ml$", re.IGNORECASE)
_CONDA_DEPENDENCIES = re.compile(r"^dependencies\s*:", re.MULTILINE)
_README = re.compile(r"^README(?:\.(?:md|rst|txt))?$", re.IGNORECASE)
# `TensorFlow 2.3`, `TF 2.1` (capitals: `tf` is too common a word), `tensorflow-gpu==2.2.0`,
# `tensorflow >= 2.4`, the 2.0 previews (`tf-nightly-gpu-2.0-preview==2.0.0.dev20190526`): a TF 2
# version a README names; `TensorFlow 2.4+` or `2.4 or later` admits later ones too, so names none
_README_TENSORFLOW = re.compile(
    r"\b(?:tensorflow|tf-nightly|(?-i:TF))(?:[-_]gpu)?(?:-2\.0-preview)?[ \t]*(?:version[ \t]*)?"
    r"(?P<operator>==|>=|<=|~=|<|>)?[ \t]*v?(?P<version>2\.\d+(?:\.\d+)?)\b"
    r"(?!\+|[ \t]*(?:or|and)[ \t]+(?:later|above|higher|newer|greater|up)\b)",
    re.IGNORECASE)
_DOCKERFILE = re.compile(r"^(?:Dockerfile(?:\.[\w.-]+)?|[\w.-]+\.Dockerfile)$")
_DOCKER_IMAGE = re.compile(r"^\s*FROM\s+tensorflow/tensorflow:(\d+\.\d+(?:\.\d+)?)", re.MULTILINE | re.IGNORECASE)
_PIP_SPEC = re.compile(r"\b((?:tensorflow|tf-keras|tf_keras|keras)(?:-(?:cpu|gpu))?\s*(?:==|<=|>=|<|~=)\s*[\w.*]+)")
_FIRST_KERAS_3_TENSORFLOW = Version("2.16")
_FIRST_OPTIMIZER_V3_TENSORFLOW = Version("2.11")  # the new optimizers, built in the scope
_FIRST_OWN_STRATEGY_SLOTS = Version("2.5")  # OptimizerV2.add_slot enters the optimizer's strategy
_FIRST_TENSORFLOW_2 = Version("2")
_FIRST_KERAS_3 = Version("3")
_FIRST_REPLICA_SCALED_KERAS = Version("3.8")
# The newest TensorFlow built for each Python before 3.9, the first that Keras 3 (TF 2.16) supports
# (tensorflow.org/install/source#tested_build_configurations)
_NEWEST_TENSORFLOW_FOR_PYTHON = {(2, 7): Version("2.1"), (3, 5): Version("2.3"), (3, 6): Version("2.6"),
                                 (3, 7): Version("2.11"), (3, 8): Version("2.13")}
_PROBE_VERSIONS = {
    "tensorflow": [Version(v) for v in ("2.0", "2.1", "2.2", "2.3", "2.4", "2.4.1", "2.8", "2.10", "2.11", "2.12",
                                        "2.13", "2.14", "2.15", "2.15.1", "2.16", "2.16.1", "2.17", "2.18", "2.19",
                                        "2.20")],
    "keras": [Version(v) for v in ("2.4", "2.10", "2.11", "2.13", "2.15", "3.0", "3.3", "3.8", "3.12")],
}
# The day each TensorFlow reached PyPI: a file last modified on a day was written for one released by then
_TENSORFLOW_RELEASED = ((datetime.date(2019, 9, 30), Version("2.0")), (datetime.date(2020, 1, 8), Version("2.1")),
                        (datetime.date(2020, 5, 7), Version("2.2")), (datetime.date(2020, 7, 27), Version("2.3")),
                        (datetime.date(2020, 12, 14), Version("2.4")), (datetime.date(2021, 5, 13), Version("2.5")),
                        (datetime.date(2021, 8, 11), Version("2.6")), (datetime.date(2021, 11, 4), Version("2.7")),
                        (datetime.date(2022, 2, 2), Version("2.8")), (datetime.date(2022, 5, 16), Version("2.9")),
                        (datetime.date(2022, 9, 6), Version("2.10")), (datetime.date(2022, 11, 18), Version("2.11")),
                        (datetime.date(2023, 3, 23), Version("2.12")), (datetime.date(2023, 7, 5), Version("2.13")),
                        (datetime.date(2023, 9, 26), Version("2.14")), (datetime.date(2023, 11, 14), Version("2.15")))
# keras 3.0.0 reached PyPI then: from that day a `keras` import may mean either
_KERAS_3_RELEASED = datetime.date(2023, 11, 28)
_HEADER_CHARS = 4096  # a dated header opens the file
_TENSORFLOW_NAMES = frozenset({"tensorflow", "tensorflow-cpu", "tensorflow-gpu", "tensorflow-macos",
                               "tf-nightly", "intel-tensorflow"})
_LEGACY_KERAS_NAMES = frozenset({"tf-keras", "tf_keras"})
_KERAS_REQUIREMENT = re.compile(r"\s*keras(?![\w.-])", re.IGNORECASE)
# A project that depends on TensorFlow Addons runs on Keras 2: its last release (0.23) stops at
# TensorFlow 2.15 and Keras 3 was left out of its scope (tensorflow/addons#2870). It names no
# TensorFlow, so it counts after everything that does (a README's too), which tells the era as well
_KERAS_2_ONLY_REQUIREMENT = re.compile(r"\s*tensorflow[-_]addons(?![\w.-])", re.IGNORECASE)
_QUOTED_REQUIREMENT = re.compile(r"""["']((?:tensorflow|tf[-_]keras|keras|tf-nightly|intel-tensorflow)[\w-]*[^"'\n]*)["']""",
                                 re.IGNORECASE)


class KerasVersion(NamedTuple):
    major: int
    evidence: str  # why: "the file imports `tf_keras`", "requirements.txt pins tensorflow<2.16", ...
    # TensorFlow before 2.11: optimizers are OptimizerV2, whose variables appear at the first step
    legacy_optimizers: bool = False
    # TensorFlow before 2.5: OptimizerV2 makes its slots under whatever strategy is current then; from
    # 2.5 under the one it was created in (`add_slot` enters `_distribution_strategy_scope`, optimizer_v2.py)
    slots_in_current_strategy: bool = False
    # Keras 3.0-3.7: a default-reduction loss averages over the replica's batch only; 3.8 divides by the
    # replicas too (`scale_loss_for_distribution` in `reduce_values`, keras-team/keras#20609)
    unscaled_replica_losses: bool = False
    # TensorFlow 1 building graphs: a restore makes no slot variable, it restores them when they are made
    # (OptimizerV2's `_create_or_restore_slot_variable` creates them at once only when executing eagerly)
    graph_mode: bool = False


def detect(code: str, path: str | None, setting: str, interpreter: str | None,
           recorded: RecordedRun = RecordedRun()) -> KerasVersion:
    for literal, pattern, major, evidence in _IN_FILE:
        if _starts_a_line(literal, pattern, code) if literal else pattern.search(code):
            return KerasVersion(major, evidence)
    if recorded.tensorflow:
        version = Version(recorded.tensorflow)
        return KerasVersion(3 if version >= _FIRST_KERAS_3_TENSORFLOW else 2,
                            f"the notebook's output, which shows {recorded.tensorflow_shown_by or 'TensorFlow ' + recorded.tensorflow}",
                            version < _FIRST_OPTIMIZER_V3_TENSORFLOW, _slots_in_current_strategy([version]))
    if recorded.keras:
        shown = f"the notebook's output, which shows Keras {recorded.keras}'s progress bar"
        dated = _from_recorded_python(recorded.python)  # its kernel's Python may also date the optimizers
        if dated is not None and dated.major == recorded.keras:
            return dated._replace(evidence=shown)
        return KerasVersion(recorded.keras, shown)
    asserted = _asserted_tensorflow(code)
    if asserted is not None:
        return asserted
    if setting in ("2", "3"):
        # the setting names the major version; the environment may still tell the optimizer era
        found = (_from_environment(path, interpreter) or _from_last_modified(code, recorded)
                 or _from_tensorflow_1_code(code)) if setting == "2" else None
        era = found is not None and found.major == 2
        return KerasVersion(int(setting), "the `keras-version` setting", era and found.legacy_optimizers,
                            era and found.slots_in_current_strategy, graph_mode=era and found.graph_mode)
    return (_from_environment(path, interpreter) or _from_last_modified(code, recorded)
            or _from_recorded_python(recorded.python) or _from_code(code, path))


def _from_last_modified(code: str, recorded: RecordedRun) -> KerasVersion | None:
    """Keras 2 when the file's dated header (`Last modified: 2020/07/16`, in the code or a
    notebook's markdown) predates Keras 3: the code was written for a TensorFlow released by then."""
    match = LAST_MODIFIED.match(recorded.last_modified) if recorded.last_modified else LAST_MODIFIED.search(
        code, 0, _HEADER_CHARS)
    if match is None:
        return None
    try:
        modified = datetime.date(*(int(part) for part in match.groups()))
    except ValueError:
        return None
    admitted = [version for released, version in _TENSORFLOW_RELEASED if released <= modified]
    if modified >= _KERAS_3_RELEASED or not admitted:
        return None
    major, *flags = _keras_of(admitted, "tensorflow")
    return KerasVersion(major, f"the file says it was last modified on {modified.isoformat()}, when TensorFlow "
                               f"{admitted[-1]} was the newest", *flags)


def _from_recorded_python(recorded: str | None) -> KerasVersion | None:
    """Keras 2 when the notebook's kernel ran a Python no Keras 3 supports."""
    try:
        python = Version(recorded) if recorded else None
    except InvalidVersion:
        return None
    newest = python and _NEWEST_TENSORFLOW_FOR_PYTHON.get((python.major, python.minor))
    if newest is None:
        return None
    admitted = [version for version in (*_PROBE_VERSIONS["tensorflow"], newest) if version <= newest]
    major, *flags = _keras_of(admitted, "tensorflow")
    return KerasVersion(major, f"the notebook's kernel, Python {python.major}.{python.minor}, which no TensorFlow "
                               f"after {newest} supports", *flags)


def _from_environment(path: str | None, interpreter: str | None) -> KerasVersion | None:
    if interpreter:
        found = _from_installed(installed_for_interpreter(interpreter),
                                "the packages installed for the configured interpreter")
        if found:
            return found
    else:
        for variable in ("VIRTUAL_ENV", "CONDA_PREFIX"):
            prefix = os.environ.get(variable)
            found = _from_installed(installed_in_prefix(prefix) if prefix else None,
                                    f"the packages installed in the active environment (`{variable}`)")
            if found:
                return found
    return declared_version(os.path.dirname(os.path.abspath(path))) if path else None


def _from_tensorflow_1_code(code: str) -> KerasVersion | None:
    if uses_tensorflow_1_apis(code):
        return KerasVersion(2, "the file uses TensorFlow 1 APIs", legacy_optimizers=True,
                            slots_in_current_strategy=True, graph_mode=not _ENABLES_EAGER.search(code))
    return None


def uses_tensorflow_1_apis(code: str) -> bool:
    """Whether the code calls what only TensorFlow 1 has at the top level (`tf.Session`, ...)."""
    # `tf.Session` is then TF 2's `compat.v1.Session`; the literal first: the pattern scans slowly
    if "compat" in code and _COMPAT_V1_AS_TF.search(code):
        return False
    return any(literal in code for literal in _TENSORFLOW_1_ONLY_LITERALS) and bool(_TENSORFLOW_1_ONLY_APIS.search(code))


def _from_code(code: str, path: str | None) -> KerasVersion:
    tensorflow_1 = _from_tensorflow_1_code(code)
    if tensorflow_1 is not None:
        return tensorflow_1
    if "lr" in code and _OPTIMIZER_V2_LR.search(code):
        return KerasVersion(2, "the file passes `lr=` to an optimizer, which only OptimizerV2 (TensorFlow "
                               "before 2.11) reads", legacy_optimizers=True)
    if "mixed_precision" in code and _EXPERIMENTAL_MIXED_PRECISION.search(code):
        return KerasVersion(2, "the file uses `keras.mixed_precision.experimental`, which TensorFlow 2.9 removed",
                            legacy_optimizers=True)
    if ((any(literal in code for literal in _KERAS_2_ONLY_LITERALS) and _KERAS_2_ONLY_APIS.search(code))
            or (any(literal in code for literal in _KERAS_2_ONLY_MODULE_LITERALS) and _KERAS_2_ONLY_MODULES.search(code))
            or (_CHECKPOINT_PATH.search(code) and _KERAS_WEIGHTS_CALL.search(code))):
        return KerasVersion(2, "the file uses Keras-2-only APIs")
    for literal, pattern, evidence in _IMPORTS_KERAS_2_ONLY_LIBRARIES:
        if _starts_a_line(literal, pattern, code):
            return KerasVersion(2, evidence)
    implied = implied_by_packages(os.path.dirname(os.path.abspath(path))) if path else None
    if implied is not None:
        return implied
    # (a file in a package of the project's own named `keras` imports that package, not Keras)
    if _starts_a_line(*_IMPORTS_KERAS, code) and not sits_in_package(path, "keras"):
        return KerasVersion(3, "the file imports `keras`, and nothing names a TensorFlow before 2.16")
    return KerasVersion(DEFAULT, "nothing names a version, and Keras 3 is the default since TensorFlow 2.16")


def _asserted_tensorflow(code: str) -> KerasVersion | None:
    for match in _matches_at_line_starts("assert", _VERSION_ASSERTION, code):
        rest = match.group(1)
        if prefix := _ASSERTED_PREFIX.match(rest):
            text = prefix.group(1)  # a string prefix: "2.1" also admits 2.10 to 2.19
            spelled = text.rstrip(".")
            named = [Version(spelled)] if re.fullmatch(r"\d+(?:\.\d+)*", spelled) else []
            admitted = [v for v in (*_PROBE_VERSIONS["tensorflow"], *named) if f"{v}.".startswith(text)]
            evidence = f"the file asserts a TensorFlow version starting with {text}"
        elif bound := _ASSERTED_BOUND.match(rest):
            from packaging.specifiers import SpecifierSet  # only a file that asserts a bound needs it (see ``_major_of``)

            specifier = SpecifierSet(f"{bound.group(1)}{bound.group(2)}")
            admitted = [v for v in (*_PROBE_VERSIONS["tensorflow"], *_versions_named(specifier)) if v in specifier]
            evidence = f"the file asserts TensorFlow {bound.group(1)} {bound.group(2)}"
        else:
            continue
        major, *flags = _keras_of(admitted, "tensorflow")
        if major is not None:
            return KerasVersion(major, evidence, *flags)
    return None


def _starts_a_line(literal: str, pattern: re.Pattern, code: str) -> bool:
    """Whether ``pattern`` matches from the start of a line that holds ``literal``."""
    return next(_matches_at_line_starts(literal, pattern, code), None) is not None


def _matches_at_line_starts(literal: str, pattern: re.Pattern, code: str):
    """The matches of ``pattern`` from the start of each line that holds ``literal``."""
    position = 0
    while (found := code.find(literal, position)) >= 0:
        after_newline = max(position, code.rfind("\n", position, found) + 1)  # ``position`` starts a line
        line_start = max(after_newline, code.rfind("\r", after_newline, found) + 1)
        if match := pattern.match(code, line_start):
            yield match
        line_break = _LINE_BREAK.search(code, found)
        if line_break is None:
            return
        position = line_break.end()


def _from_installed(installed: Installed | None, evidence: str) -> KerasVersion | None:
    """keras decides when installed (Keras 3 ships apart from TensorFlow); else tensorflow's version."""
    if installed is None:
        return None
    tensorflow = installed.tensorflow
    legacy = tensorflow is not None and tensorflow < _FIRST_OPTIMIZER_V3_TENSORFLOW
    current_slots = tensorflow is not None and _slots_in_current_strategy([tensorflow])
    if installed.keras is not None:
        unscaled = _FIRST_KERAS_3 <= installed.keras < _FIRST_REPLICA_SCALED_KERAS
        return KerasVersion(3 if installed.keras.major >= 3 else 2, evidence, legacy, current_slots, unscaled)
    if tensorflow is not None:
        return KerasVersion(3 if tensorflow >= _FIRST_KERAS_3_TENSORFLOW else 2, evidence, legacy, current_slots)
    return None


def declared_version(folder: str) -> KerasVersion | None:
    """What the nearest folder (walking up to the repository root) that declares TensorFlow or
    Keras dependencies says."""
    return _declarations(folder)[0]


def implied_by_packages(folder: str) -> KerasVersion | None:
    """What a Keras-2-only package the project declares implies: weaker than what the code says of
    its era (`lr=`), read only when nothing else names a version."""
    return _declarations(folder)[1]


def _declarations(folder: str) -> tuple[KerasVersion | None, KerasVersion | None]:
    """(``declared_version``, ``implied_by_packages``)."""
    implied = None
    while True:
        listing = _listing(folder)
        files = listing.declarations
        if listing.has_docker:  # images are often kept in a docker/ folder beside the code
            files += tuple(f"docker/{name}" for name in _listing(os.path.join(folder, "docker")).declarations
                           if _DOCKERFILE.match(name))
        if files:
            stamp = tuple(modified(os.path.join(folder, name)) for name in files)
            found, implied_here = _declared_in(folder, tuple(files), stamp)
            if found:
                return found, implied_here
            implied = implied or implied_here
        parent = os.path.dirname(folder)
        if listing.is_repository_root or parent == folder:
            return (_named_in_readme(folder, listing.readme) if listing.readme else None), implied
        folder = parent


def _named_in_readme(folder: str, name: str) -> KerasVersion | None:
    """The TensorFlow versions the repository's README names (`Requirements: TensorFlow 2.3`,
    `tensorflow-gpu==2.2.0`), when they all mean one Keras: read after every declaration file."""
    path = os.path.join(folder, name)
    return _readme_version(path, modified(path))


@lru_cache(maxsize=64)
def _readme_version(path: str, stamp: float) -> KerasVersion | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read(200_000)
    except OSError:
        return None
    named = [(match.group(0).strip(), f"tensorflow{match['operator'] or '=='}{match['version']}"
              + ("" if match["operator"] or match["version"].count(".") > 1 else ".*"))
             for match in _README_TENSORFLOW.finditer(text)]
    found = {_major_of(requirement) for _, requirement in named}
    if len(found) != 1:
        return None
    (major, *flags), = found
    return (KerasVersion(major, f"`{os.path.basename(path)}` names `{named[0][0]}`", *flags)
            if major else None)


@lru_cache(maxsize=256)
def _declared_in(folder: str, files: tuple[str, ...],
                 stamp: tuple[float, ...]) -> tuple[KerasVersion | None, KerasVersion | None]:
    """(what the files' TensorFlow or Keras requirements say, what a Keras-2-only package they
    declare implies)."""
    implied = None
    for name in files:
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as handle:
                text = handle.read(1_000_000)
        except OSError:
            continue
        # keras decides when declared (Keras 3 ships apart from TensorFlow): it alone can pin Keras 3's minor
        for requirement in sorted(_requirements(os.path.basename(name), text), key=_keras_first):
            if implied is None and _KERAS_2_ONLY_REQUIREMENT.match(requirement):
                implied = KerasVersion(2, f"`{name}` declares `{requirement}`, which never supported Keras 3")
                continue
            major, *flags = _major_of(requirement)
            if major:
                return KerasVersion(major, f"`{name}` declares `{requirement}`", *flags), implied
    return None, implied


def _requirements(name: str, text: str) -> list[str]:
    if name == "pyproject.toml":
        return _pyproject_requirements(text)
    if name == "pixi.toml":
        return _pixi_requirements(text)
    if name == "Pipfile.lock":
        return _pipfile_lock_requirements(text)
    if name == "poetry.lock":
        return [f"{n}=={v}" for n, v in re.findall(r'^name = "([^"]+)"\nversion = "([^"]+)"', text, re.MULTILINE)]
    if _YAML_FILE.match(name):
        if not _CONDA_DEPENDENCIES.search(text):
            return []
        # conda pins with one `=`: `tensorflow=2.15` means `tensorflow==2.15.*`, and an exported
        # environment adds the build: `tensorflow=2.1.0=gpu_py37h7db9008_0`
        items = re.findall(r"^\s*-\s*([A-Za-z][\w.-]*\s*[=<>!~][^\s#]*)", text, re.MULTILINE)
        return [re.sub(r"^([\w.-]+)\s*=(?!=)([\w.]+)(?:=[\w.*]+)?$", r"\1==\2.*", item) for item in items]
    if _DOCKERFILE.match(name):
        # `FROM tensorflow/tensorflow:2.4.1-gpu`, `RUN pip install tensorflow==2.4.1`
        return [f"tensorflow=={tag}" for tag in _DOCKER_IMAGE.findall(text)] + _PIP_SPEC.findall(text)
    if name == "Pipfile":
        return _pipfile_requirements(text)
    if name in ("setup.py", "setup.cfg"):
        return [match.strip() for match in _QUOTED_REQUIREMENT.findall(text)] + (
            re.findall(r"^\s*((?:tensorflow|tf[-_]keras|keras)[^\s#;]*)", text, re.MULTILINE) if name == "setup.cfg" else [])
    return [line.split("#", 1)[0].strip() for line in text.splitlines() if not line.lstrip().startswith(("-", "#"))]


def _pyproject_requirements(text: str) -> list[str]:
    tomllib = toml()
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return []
    project = data.get("project", {}) if isinstance(data.get("project"), dict) else {}
    found = [item for item in project.get("dependencies", []) if isinstance(item, str)]
    for group in (project.get("optional-dependencies") or {}).values():
        found.extend(item for item in group if isinstance(item, str))
    for group in (data.get("dependency-groups") or {}).values() if isinstance(data.get("dependency-groups"), dict) else ():
        found.extend(item for item in group if isinstance(item, str))
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    for table in _dependency_tables(tool.get("poetry"), ("dependencies",)) + _pixi_tables(tool.get("pixi")):
        found.extend(_named_requirements(table))
    return found


def _pipfile_requirements(text: str) -> list[str]:
    """`[packages]` and `[dev-packages]`: `name = "*"`, `"==2.2"`, a bare `"2.2"` (read as `==`),
    or `{version = ...}`."""
    tomllib = toml()
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return []
    return [item for table in _dependency_tables(data, ("packages", "dev-packages"))
            for item in _named_requirements(table)]


def _pixi_requirements(text: str) -> list[str]:
    tomllib = toml()
    try:
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError):
        return []
    return [item for table in _pixi_tables(data) for item in _named_requirements(table)]


def _pixi_tables(pixi) -> list[dict]:
    """pixi's conda and PyPI dependency tables, of the workspace and of each feature."""
    kinds = ("dependencies", "pypi-dependencies")
    features = pixi.get("feature") if isinstance(pixi, dict) and isinstance(pixi.get("feature"), dict) else {}
    return _dependency_tables(pixi, kinds) + [t for f in features.values() for t in _dependency_tables(f, kinds)]


def _dependency_tables(section, kinds: tuple[str, ...]) -> list[dict]:
    if not isinstance(section, dict):
        return []
    return [section[kind] for kind in kinds if isinstance(section.get(kind), dict)]


def _named_requirements(table: dict) -> list[str]:
    """`name = "spec"` or `name = { version = "spec" }` (Poetry, pixi, Pipfile) as requirements."""
    found = []
    for name, spec in table.items():
        version = spec.get("version", "") if isinstance(spec, dict) else spec
        if isinstance(version, str):
            found.append(name + _poetry_specifier(version))
    return found


def _poetry_specifier(version: str) -> str:
    version = version.strip()
    if version in ("", "*"):
        return ""
    if version.startswith("^"):  # ^2.15 means >=2.15,<3
        base = version[1:]
        return f">={base},<{int(base.split('.')[0]) + 1}"
    if version.startswith("~") and not version.startswith("~="):
        base = version[1:]
        major, _, rest = base.partition(".")
        minor = rest.split(".")[0] or "0"
        return f">={base},<{major}.{int(minor) + 1}"
    if version.startswith("=") and not version.startswith("=="):  # conda's `=2.12`: any 2.12 release
        return f"=={version[1:]}.*"
    return version if version[0] in "<>=!~" else f"=={version}"


def _pipfile_lock_requirements(text: str) -> list[str]:
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return []
    found = []
    for section in ("default", "develop"):
        packages = data.get(section) if isinstance(data, dict) else None
        for name, spec in (packages or {}).items() if isinstance(packages, dict) else ():
            if isinstance(spec, dict) and isinstance(spec.get("version"), str):
                found.append(name + spec["version"])
    return found


def _keras_first(requirement: str) -> bool:
    """Sort key: a `keras` requirement before the others, which keep their order."""
    return not _KERAS_REQUIREMENT.match(requirement)


def _major_of(text: str) -> tuple[int | None, bool, bool, bool]:
    """2 or 3 when the requirement only admits one Keras (None when it says nothing about it),
    whether it only admits TensorFlow before 2.11 (OptimizerV2), only TensorFlow before 2.5, and only
    Keras 3.0 to 3.7."""
    # its grammar costs as much to import as the model's classes; only declared dependencies need it
    from packaging.requirements import InvalidRequirement, Requirement

    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        return None, False, False, False
    name = requirement.name.lower().replace("_", "-")
    if name in _LEGACY_KERAS_NAMES:
        return 2, False, False, False
    family = "tensorflow" if name in _TENSORFLOW_NAMES else "keras" if name == "keras" else None
    if family is None or not requirement.specifier:
        return None, False, False, False
    admitted = [version for version in (*_PROBE_VERSIONS[family], *_versions_named(requirement.specifier))
                if requirement.specifier.contains(version, prereleases=True)]
    return _keras_of(admitted, family)


def _keras_of(admitted: list[Version], family: str) -> tuple[int | None, bool, bool, bool]:
    """The Keras major the admitted versions of ``family`` (tensorflow, keras) share (None when
    they differ), whether they are all TensorFlow before 2.11 (OptimizerV2), all TensorFlow before 2.5,
    and all Keras 3.0 to 3.7 (a TensorFlow version does not pin Keras 3's: pip installs the newest)."""
    if not admitted or (family == "tensorflow" and all(version < _FIRST_TENSORFLOW_2 for version in admitted)):
        return None, False, False, False  # a TensorFlow 1 pin is for TF1 code: it says nothing of TF2 code beside it
    first_3 = _FIRST_KERAS_3_TENSORFLOW if family == "tensorflow" else _FIRST_KERAS_3
    majors = {3 if version >= first_3 else 2 for version in admitted}
    legacy = all(version < _FIRST_OPTIMIZER_V3_TENSORFLOW for version in admitted)
    unscaled = family == "keras" and all(_FIRST_KERAS_3 <= version < _FIRST_REPLICA_SCALED_KERAS for version in admitted)
    current_slots = family == "tensorflow" and _slots_in_current_strategy(admitted)  # `keras` 2.4 runs on TF 2.2+
    return (majors.pop() if len(majors) == 1 else None), legacy, current_slots, unscaled


def _slots_in_current_strategy(admitted: list[Version]) -> bool:
    return all(version < _FIRST_OWN_STRATEGY_SLOTS for version in admitted)


def _versions_named(specifier) -> list[Version]:
    """The versions a specifier spells (`==2.2.0`, `>=2.3,<2.5`): probes of their own, so a pin
    between the fixed probes is seen."""
    found = []
    for spec in specifier:
        try:
            found.append(Version(spec.version.removesuffix(".*")))
        except InvalidVersion:
            continue
    return found


class _Listing(NamedTuple):
    """What ``declared_version`` needs of a folder's entries."""

    stamp: int  # the folder's modification time: every entry added, removed or renamed moves it
    declarations: tuple[str, ...]  # the names that may declare dependencies, sorted
    has_docker: bool
    is_repository_root: bool
    readme: str = ""  # `README.md` (or .rst, .txt, none): what the project says it runs on


_NO_LISTING = _Listing(0, (), False, False)
_LISTINGS: dict[str, _Listing] = {}  # one per folder: a folder being written to keeps one, not each


def _listing(folder: str) -> _Listing:
    """The folder's listing, read again only when its modification time moves: an edit of an open
    file lists no folder."""
    try:
        stamp = os.stat(folder).st_mtime_ns
    except OSError:
        return _NO_LISTING
    known = _LISTINGS.get(folder)
    if known is not None and known.stamp == stamp:
        return known
    try:
        names = os.listdir(folder)
    except OSError:
        names = []
    listing = _Listing(stamp, tuple(sorted(name for name in names if name in _DECLARATION_FILES or _YAML_FILE.match(name)
                                           or _REQUIREMENT_FILE.match(name) or _DOCKERFILE.match(name))),
                       "docker" in names, ".git" in names, next((name for name in sorted(names) if _README.match(name)), ""))
    _LISTINGS[folder] = listing
    return listing
