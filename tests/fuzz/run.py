"""The longer fuzz run: every seed asked for, prints one summary line; exit 1 on any failure.

    .venv/bin/python tests/fuzz/run.py                      # 10 seeds x 500 inputs
    .venv/bin/python tests/fuzz/run.py --seeds 0-99 --count 1000
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harness import run  # noqa: E402


def seeds(text: str) -> list[int]:
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


def main() -> int:
    parser = argparse.ArgumentParser(description="fuzz the tfscope engine")
    parser.add_argument("--seeds", default="0-9", help="a seed or a range: 7, 0-99 (default 0-9)")
    parser.add_argument("--count", type=int, default=500, help="inputs per seed (default 500)")
    arguments = parser.parse_args()
    logging.getLogger("tfscope").addHandler(logging.NullHandler())  # skipped deep code is counted, not printed
    logging.getLogger("tfscope").propagate = False
    report = run(seeds(arguments.seeds), arguments.count)
    for failure in report.failures:
        print(failure)
    print(report.summary())
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
