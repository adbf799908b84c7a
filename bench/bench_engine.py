"""Benchmark of the static analysis and the CLI (not a test): prints numbers, asserts nothing.

1. `tfscope.engine.analyze` on generated 300 / 3,000 / 30,000-line training scripts, next to
   `ast.parse` of the same text (median of several runs), the ratio and the cost per line
   (target, issue 10: at most 2x `ast.parse`, linear), and the incremental analysis of a
   one-character edit (`tfscope.incremental.IncrementalAnalyzer`).
2. `tfscope check` next to pyflakes and ruff (the optional `bench` extra:
   `pip install -e '.[bench]'`; a missing tool is skipped with a note), same files, same run:
   the folder of generated scripts (half of it too, to show the growth), one project of many
   small modules and a training script (half of it too: linear in a project's files), and a folder of real
   scripts and notebooks (`bench/realworld/.cache` when fetched, else the rule corpus and the
   examples). tfscope runs twice: with a report that shows fixes (concise: each is validated)
   and with one that does not (github: no fix is validated).
3. A profile summary: where the engine spends its time on the 3,000-line script.

Run: .venv/bin/python bench/bench_engine.py [--files 200] [--project-modules 2000] [--realworld-cache PATH]
"""

from __future__ import annotations

import argparse
import ast
import compileall
import cProfile
import gc
import io
import pstats
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tfscope import engine
from tfscope.incremental import IncrementalAnalyzer
from tfscope.source import Source

ROOT = Path(__file__).resolve().parent.parent
REALWORLD_CACHE = ROOT / "bench" / "realworld" / ".cache"
FALLBACK_REAL_CODE = (ROOT / "tests" / "corpus", ROOT / "examples")
REAL_CODE_SUFFIXES = (".py", ".ipynb")
PACKAGE = ROOT / "server" / "tfscope"

HEADER = '''\
import contextlib
import os

import tensorflow as tf
from tensorflow import keras
from tensorflow.keras import layers

GLOBAL_BATCH_SIZE = 256
'''

# Blocks of a long research script; {n} makes every block's names unique. Some are buggy on purpose.
BLOCKS = (
    '''
strategy_{n} = tf.distribute.MirroredStrategy()


def build_model_{n}(units: int = 64) -> keras.Model:
    inputs = keras.Input(shape=(32,))
    x = layers.Dense(units, activation="relu")(inputs)
    x = layers.Dropout(0.1)(x)
    outputs = layers.Dense(10)(x)
    return keras.Model(inputs, outputs, name="mlp_{n}")


with strategy_{n}.scope():
    model_{n} = build_model_{n}(128)
    model_{n}.compile(
        optimizer=keras.optimizers.Adam(1e-3),
        loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
        metrics=["accuracy"],
    )
''',
    '''
features_{n} = tf.random.normal((1024, 32))
labels_{n} = tf.random.uniform((1024,), maxval=10, dtype=tf.int32)
dataset_{n} = (
    tf.data.Dataset.from_tensor_slices((features_{n}, labels_{n}))
    .shuffle(1024)
    .batch(GLOBAL_BATCH_SIZE)
    .prefetch(tf.data.AUTOTUNE)
)
history_{n} = model_{n}.fit(dataset_{n}, epochs=2, verbose=0)
print("block {n}", history_{n}.history["loss"][-1])
''',
    '''
with strategy_{n}.scope():
    loss_object_{n} = keras.losses.SparseCategoricalCrossentropy(from_logits=True, reduction="none")
    optimizer_{n} = keras.optimizers.SGD(learning_rate=0.01, momentum=0.9)
    accuracy_{n} = keras.metrics.SparseCategoricalAccuracy()
    checkpoint_{n} = tf.train.Checkpoint(model=model_{n}, optimizer=optimizer_{n})


def train_step_{n}(inputs):
    batch_features, batch_labels = inputs
    with tf.GradientTape() as tape:
        logits = model_{n}(batch_features, training=True)
        per_example_loss = loss_object_{n}(batch_labels, logits)
        loss = tf.nn.compute_average_loss(per_example_loss, global_batch_size=GLOBAL_BATCH_SIZE)
    gradients = tape.gradient(loss, model_{n}.trainable_variables)
    optimizer_{n}.apply_gradients(zip(gradients, model_{n}.trainable_variables))
    accuracy_{n}.update_state(batch_labels, logits)
    return loss


@tf.function
def distributed_train_step_{n}(inputs):
    per_replica_losses = strategy_{n}.run(train_step_{n}, args=(inputs,))
    return strategy_{n}.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)


for epoch in range(2):
    for batch in strategy_{n}.experimental_distribute_dataset(dataset_{n}):
        distributed_train_step_{n}(batch)
    checkpoint_{n}.save(os.path.join("checkpoints", "run_{n}"))
''',
    '''
class ResidualBlock_{n}(keras.Model):
    def __init__(self, width: int):
        super().__init__()
        self.inner = layers.Dense(width, activation="gelu")
        self.outer = layers.Dense(width)

    def call(self, inputs):
        return inputs + self.outer(self.inner(inputs))


probe_{n} = keras.Sequential([keras.Input(shape=(32,)), layers.Dense(10)])
with strategy_{n}.scope():
    residual_{n} = ResidualBlock_{n}(32)
    residual_{n}.build((None, 32))
    probe_{n}.compile(optimizer=keras.optimizers.Adam(), loss="mse")
scope_{n} = strategy_{n}.scope() if strategy_{n} else contextlib.nullcontext()
with scope_{n}:
    head_{n} = keras.Sequential([keras.Input(shape=(32,)), layers.Dense(1)])
''',
)


def training_script(min_lines: int) -> str:
    """A realistic script of at least ``min_lines`` lines: whole blocks, cycled with fresh names."""
    parts = [HEADER]
    line_count = HEADER.count("\n")
    n = 0
    while line_count < min_lines:
        block = BLOCKS[n % len(BLOCKS)].format(n=n // len(BLOCKS))
        parts.append(block)
        line_count += block.count("\n")
        n += 1
    return "".join(parts)


def compile_like_an_install() -> str:
    """Write tfscope's bytecode, as installing a package does (its peers' is written): an editable
    install under PYTHONDONTWRITEBYTECODE would compile every module on every start."""
    compileall.compile_dir(PACKAGE, quiet=1)
    return "note: tfscope's bytecode compiled once, as an install does (PYTHONDONTWRITEBYTECODE would skip it)"


def median_seconds(function, runs: int) -> float:
    return statistics.median(timed(function) for _ in range(runs))


def paired_medians(baseline, measured, runs: int) -> tuple[float, float, float]:
    """(median of ``baseline``, median of ``measured``, median of their ratio in each run): the two
    are timed back to back in every run, so a busy moment of the machine weighs on both."""
    pairs = [(timed(baseline), timed(measured)) for _ in range(runs)]
    return (statistics.median(first for first, _ in pairs), statistics.median(second for _, second in pairs),
            statistics.median(second / first for first, second in pairs))


def timed(function) -> float:
    gc.collect()  # garbage of the previous run is not this run's cost
    started = time.perf_counter()
    function()
    return time.perf_counter() - started


def one_character_edits(text: str, count: int) -> list[str]:
    """Versions of ``text`` as someone types one character, then the next, into a string in the middle
    (each version parses: half-typed code is parsed whole, see ``tfscope.incremental``)."""
    at = text.index('name="', len(text) // 2) + len('name="')
    return [text[:at] + "x" * typed + text[at:] for typed in range(1, count + 1)]


def bench_analysis() -> None:
    print("static analysis vs ast.parse (median)")
    print(f"{'lines':>8} {'runs':>5} {'ast.parse ms':>13} {'analyze ms':>11} {'ratio':>6} {'us/line':>8} "
          f"{'edit ms':>8} {'edit ratio':>11} {'findings':>9}")
    for target_lines, runs in ((300, 21), (3_000, 9), (30_000, 3)):
        text = training_script(target_lines)
        lines = text.count("\n")
        analysis = engine.analyze(Source(text=text))
        parse_seconds, analyze_seconds, ratio = paired_medians(lambda: ast.parse(text),
                                                               lambda: engine.analyze(Source(text=text)), runs)
        analyzer = IncrementalAnalyzer()
        analyzer.analyze(Source(text=text))
        versions = iter(one_character_edits(text, runs))
        edit_seconds = median_seconds(lambda: analyzer.analyze(Source(text=next(versions))), runs)
        print(
            f"{lines:>8} {runs:>5} {parse_seconds * 1e3:>13.2f} {analyze_seconds * 1e3:>11.2f} "
            f"{ratio:>6.2f} {analyze_seconds / lines * 1e6:>8.2f} "
            f"{edit_seconds * 1e3:>8.2f} {edit_seconds / parse_seconds:>11.2f} {len(analysis.diagnostics):>9}"
        )
    print("  ratio: median of each run's analyze / ast.parse, timed back to back (a slow moment of a shared")
    print("  machine then slows both); edit: IncrementalAnalyzer after a one-character edit, ratio to ast.parse")


def generated_folder(folder: Path, file_count: int) -> int:
    total_lines = 0
    for index in range(file_count):
        # vary sizes like a real repository: mostly short scripts, some long ones
        text = training_script(80 + (index % 7) * 60)
        total_lines += text.count("\n")
        Path(folder, f"train_{index:03d}.py").write_text(text, encoding="utf-8")
    return total_lines


PROJECT_MODULE = '''\
"""Blocks of the project's model zoo."""
import tensorflow as tf


def build_block_{n}(units: int = {units}) -> tf.keras.Model:
    inputs = tf.keras.Input(shape=(32,))
    x = tf.keras.layers.Dense(units, activation="relu")(inputs)
    outputs = tf.keras.layers.Dense(10)(x)
    return tf.keras.Model(inputs, outputs, name="block_{n}")
'''
PROJECT_SCRIPT = '''\
import tensorflow as tf

from zoo import block_0001

strategy = tf.distribute.MirroredStrategy()
with strategy.scope():
    model = block_0001.build_block_1()
    model.compile(optimizer="adam", loss="mse")
'''


def generated_project(folder: Path, module_count: int) -> int:
    """One project (a `pyproject.toml`) of many small modules in a package, and a training script
    that creates a strategy and imports the package: every module's analysis asks which of the
    project's files may run it, so this shows whether `check` stays linear in a project's files."""
    (folder / "pyproject.toml").write_text("[project]\nname = \"zoo\"\n", encoding="utf-8")
    package = folder / "zoo"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    total_lines = PROJECT_SCRIPT.count("\n")
    (folder / "train.py").write_text(PROJECT_SCRIPT, encoding="utf-8")
    for index in range(module_count):
        text = PROJECT_MODULE.format(n=index, units=16 + index % 48)
        total_lines += text.count("\n")
        (package / f"block_{index:04d}.py").write_text(text, encoding="utf-8")
    return total_lines


def real_code_folder(folder: Path, cache: Path) -> str:
    """Real scripts and notebooks copied into ``folder`` (the cache is gitignored: tools would skip it there)."""
    sources = [cache] if cache.is_dir() else list(FALLBACK_REAL_CODE)
    for source in sources:
        for path in source.rglob("*"):
            if path.is_file():  # declaration files beside the code tell tfscope the Keras version
                target = folder / source.name / path.relative_to(source)
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, target)
    files = [path for path in folder.rglob("*") if path.suffix in REAL_CODE_SUFFIXES]
    lines = sum(path.read_bytes().count(b"\n") for path in files if path.suffix == ".py")
    notebooks = sum(path.suffix == ".ipynb" for path in files)
    where = ", ".join(str(source.relative_to(ROOT)) if source.is_relative_to(ROOT) else str(source) for source in sources)
    return f"{len(files) - notebooks} scripts ({lines} lines) and {notebooks} notebooks from {where}"


def tools(folder: Path) -> list[tuple[str, list[str] | None, str]]:
    """(name, command or None when not installed, note)."""
    python = sys.executable
    tfscope = [python, "-m", "tfscope", "check", str(folder), "--exit-zero", "--no-respect-gitignore"]
    listed = [
        ("tfscope (concise: fixes validated)", [*tfscope, "--output-format", "concise"], ""),
        ("tfscope (github: no fix validated)", [*tfscope, "--output-format", "github"], ""),
    ]
    pyflakes = _module_available("pyflakes")
    listed.append(("pyflakes", [python, "-m", "pyflakes", str(folder)] if pyflakes else None,
                   ".py files only" if pyflakes else "not installed: pip install -e '.[bench]'"))
    ruff = shutil.which("ruff", path=str(Path(python).parent)) or shutil.which("ruff")
    listed.append(("ruff (all rules)", [ruff, "check", "--select", "ALL", "--no-cache", "--exit-zero", "--quiet",
                                        str(folder)] if ruff else None,
                   "" if ruff else "not installed: pip install -e '.[bench]'"))
    return listed


def _module_available(name: str) -> bool:
    return subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True).returncode == 0


def bench_folder(title: str, folder: Path) -> None:
    print(f"\n{title}")
    for name, command, note in tools(folder):
        if command is None:
            print(f"  {name:<36} skipped: {note}")
            continue
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = subprocess.run(command, capture_output=True, text=True)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        # CPU time (user + sys of the tool and its workers): steadier than wall on a shared machine
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        problem = f"  (exit {result.returncode}: {result.stderr.strip()[:200]})" if result.returncode not in (0, 1) else ""
        print(f"  {name:<36} {wall:7.2f} s wall {cpu:7.2f} s cpu {note}{problem}")


def bench_cli(file_count: int, project_modules: int, cache: Path) -> None:
    startup_seconds = median_seconds(
        lambda: subprocess.run([sys.executable, "-m", "tfscope", "--version"], capture_output=True), 3)
    print(f"\nCLI start-up (tfscope --version): {startup_seconds * 1e3:.0f} ms")
    with tempfile.TemporaryDirectory(prefix="tfscope-bench-") as temporary:
        for count in (file_count // 2, file_count):
            folder = Path(temporary, f"generated-{count}")
            folder.mkdir()
            lines = generated_folder(folder, count)
            bench_folder(f"{count} generated scripts, {lines} lines", folder)
        for count in (project_modules // 2, project_modules):
            folder = Path(temporary, f"project-{count}")
            folder.mkdir()
            lines = generated_project(folder, count)
            bench_folder(f"one project of {count} modules and a training script, {lines} lines", folder)
        folder = Path(temporary, "real")
        folder.mkdir()
        bench_folder(f"real code: {real_code_folder(folder, cache)}", folder)


def bench_profile(top: int = 15) -> None:
    text = training_script(3_000)
    engine.analyze(Source(text=text))
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(3):
        engine.analyze(Source(text=text))
    profile.disable()
    report = io.StringIO()
    stats = pstats.Stats(profile, stream=report)
    stats.sort_stats("tottime").print_stats(top)
    body = report.getvalue()
    print(f"\nprofile: engine.analyze x3 on the 3,000-line script, top {top} functions by own time")
    print(body[body.index("ncalls"):].rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=200, help="scripts in the generated folder")
    parser.add_argument("--project-modules", type=int, default=2000, help="modules in the generated project")
    parser.add_argument("--realworld-cache", type=Path, default=REALWORLD_CACHE,
                        help="fetched real code (bench/realworld/realworld.py fetches it)")
    arguments = parser.parse_args()
    print(compile_like_an_install())
    bench_analysis()
    bench_cli(arguments.files, arguments.project_modules, arguments.realworld_cache)
    bench_profile()


if __name__ == "__main__":
    main()
