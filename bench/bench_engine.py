"""Benchmark of the static analysis (not a test): prints numbers, asserts nothing.

1. `tfscope.engine.analyze` on generated 300 / 3,000 / 30,000-line training scripts, next to
   `ast.parse` of the same text (median of several runs), with the ratio and the cost per line.
   Target (issue 2): at most 3x `ast.parse`, growing linearly with size.
2. CLI throughput: wall time of `python -m tfscope check DIR` on a folder of generated scripts.

Run: .venv/bin/python bench/bench_engine.py [--files 200]
"""

from __future__ import annotations

import argparse
import ast
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tfscope import engine
from tfscope.source import Source

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


def median_seconds(function, runs: int) -> float:
    timings = []
    for _ in range(runs):
        gc.collect()  # garbage of the previous run is not this run's cost
        started = time.perf_counter()
        function()
        timings.append(time.perf_counter() - started)
    return statistics.median(timings)


def bench_analysis() -> None:
    print("static analysis vs ast.parse (median)")
    print(f"{'lines':>8} {'runs':>5} {'ast.parse ms':>13} {'analyze ms':>11} {'ratio':>6} {'analyze us/line':>16} {'findings':>9}")
    for target_lines, runs in ((300, 21), (3_000, 9), (30_000, 3)):
        text = training_script(target_lines)
        lines = text.count("\n")
        parse_seconds = median_seconds(lambda: ast.parse(text), runs)
        analysis = engine.analyze(Source(text=text))
        analyze_seconds = median_seconds(lambda: engine.analyze(Source(text=text)), runs)
        ratio = analyze_seconds / parse_seconds if parse_seconds else float("nan")
        print(
            f"{lines:>8} {runs:>5} {parse_seconds * 1e3:>13.2f} {analyze_seconds * 1e3:>11.2f} "
            f"{ratio:>6.2f} {analyze_seconds / lines * 1e6:>16.2f} {len(analysis.diagnostics):>9}"
        )


def bench_cli(file_count: int) -> None:
    command = [sys.executable, "-m", "tfscope"]
    startup_seconds = median_seconds(lambda: subprocess.run([*command, "--version"], capture_output=True), 3)
    with tempfile.TemporaryDirectory(prefix="tfscope-bench-") as folder:
        total_lines = 0
        for index in range(file_count):
            # vary sizes like a real repository: mostly short scripts, some long ones
            text = training_script(80 + (index % 7) * 60)
            total_lines += text.count("\n")
            Path(folder, f"train_{index:03d}.py").write_text(text, encoding="utf-8")
        started = time.perf_counter()
        result = subprocess.run(
            [*command, "check", folder, "--output-format", "concise", "--exit-zero"], capture_output=True, text=True
        )
        wall_seconds = time.perf_counter() - started
    findings = sum(1 for line in result.stdout.splitlines() if " TFS0" in line)
    print(f"\nCLI: python -m tfscope check DIR (exit {result.returncode})")
    print(f"  start-up (--version)  {startup_seconds * 1e3:8.0f} ms")
    print(f"  {file_count} files, {total_lines} lines: {wall_seconds:6.2f} s wall, "
          f"{file_count / wall_seconds:7.1f} files/s, {total_lines / wall_seconds:9.0f} lines/s, {findings} findings")
    if result.returncode != 0:
        print(f"  stderr: {result.stderr.strip()[:500]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=200, help="scripts in the CLI throughput folder")
    arguments = parser.parse_args()
    bench_analysis()
    bench_cli(arguments.files)


if __name__ == "__main__":
    main()
