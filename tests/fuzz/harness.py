"""Seeded inputs a hostile editor session produces, and the engine's contract checked on each.

Inputs: prefixes of the corpus files (a file typed top to bottom), mutations of them (a token
deleted, a bracket or quote inserted, indentation swapped, line endings changed, a BOM, NUL,
lone surrogate or form feed inserted, a 50,000-character line, 500-deep nesting, a 500-long
chain), and broken notebooks. The contract: no exception escapes, CPU time stays within a
bound proportional to the size, every finding lies in the text, and code nested too deeply to
analyse costs only itself (the file's other findings stay).

``tests/fuzz/test_engine_fuzz.py`` runs a few hundred of these in CI; ``tests/fuzz/run.py``
runs as many as asked and prints a summary line.
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from tfscope.engine import analyze, fixes_for
from tfscope.notebook import NotebookError, read_notebook
from tfscope.source import Source

CORPUS = Path(__file__).parent.parent / "corpus"
# CPU seconds allowed: a fixed start plus a share per character. Real files take a few
# milliseconds per thousand characters; the bound only catches super-linear work (the
# quadratic regexes took minutes on 50,000 blank lines).
BASE_SECONDS = 3.0
SECONDS_PER_CHAR = 50e-6

_TOKEN = re.compile(r"\w+|[^\w\s]")
_CHAINS = {
    "elif": lambda: "if _fz:\n    pass\n" + "elif _fz:\n    pass\n" * 500,
    "sum": lambda: "_fz_sum = " + " + ".join(["_fz"] * 500) + "\n",
    "attribute": lambda: "_fz_attr = _fz" + ".b" * 500 + "\n",
    "call": lambda: "_fz_call = _fz" + "()" * 500 + "\n",
    "subscript": lambda: "_fz_item = _fz" + "[0]" * 500 + "\n",
    "method chain": lambda: "_fz_chain = _fz" + ".b()" * 500 + "\n",
}
_ODD_CHARACTERS = ["\x00", "\ufeff", "\udcff", "\ud800", "\x0c", "\x0b", "\u2028", "\x85", "\t", "\r"]


@dataclass
class Case:
    name: str
    text: str
    # findings (code, offset) the text must still produce: the deep-chain cases, checked exactly
    expected: list[tuple[str, int]] | None = None
    notebook: bool = False


@dataclass
class Report:
    cases: int = 0
    findings: int = 0
    skipped: int = 0  # cases where code nested too deeply was left out (and said so)
    unanalysable: int = 0
    slowest: tuple[float, str] = (0.0, "")
    failures: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"fuzz: {self.cases} inputs, {len(self.failures)} failures, {self.findings} findings, "
            f"{self.skipped} with deep code skipped, {self.unanalysable} not analysable, "
            f"slowest {self.slowest[0]:.2f} s CPU ({self.slowest[1]})"
        )


# ---------------------------------------------------------------- inputs


def corpus_texts() -> list[tuple[str, str]]:
    texts = []
    for path in sorted(CORPUS.rglob("*.py")):
        try:
            texts.append((str(path.relative_to(CORPUS)), path.read_text(encoding="utf-8")))
        except OSError:  # renamed while we read
            continue
    return texts


def cases(seed: int, count: int) -> Iterator[Case]:
    """``count`` inputs, the same ones for the same seed."""
    rng = random.Random(seed)
    texts = corpus_texts()
    makers: list[Callable[[random.Random, str, str], Case]] = [_prefix] * 3 + [_mutation] * 5 + [_deep_chain, _notebook]
    for number in range(count):
        name, text = rng.choice(texts)
        case = rng.choice(makers)(rng, name, text)
        case.name = f"seed {seed} #{number}: {case.name}"
        yield case


def _prefix(rng: random.Random, name: str, text: str) -> Case:
    end = rng.randrange(len(text) + 1)
    return Case(f"{name}[:{end}]", text[:end])


def _mutation(rng: random.Random, name: str, text: str) -> Case:
    kind, mutate = rng.choice(list(_MUTATIONS.items()))
    return Case(f"{name} {kind}", mutate(rng, text))


def _delete_token(rng: random.Random, text: str) -> str:
    tokens = list(_TOKEN.finditer(text))
    if not tokens:
        return text
    token = rng.choice(tokens)
    return text[: token.start()] + text[token.end() :]


def _insert(rng: random.Random, text: str, piece: str) -> str:
    at = rng.randrange(len(text) + 1)
    return text[:at] + piece + text[at:]


def _swap_indentation(rng: random.Random, text: str) -> str:
    lines = text.split("\n")
    if len(lines) < 2:
        return text
    first, second = rng.sample(range(len(lines)), 2)
    indent = lambda line: line[: len(line) - len(line.lstrip(" \t"))]
    a, b = indent(lines[first]), indent(lines[second])
    lines[first], lines[second] = b + lines[first][len(a) :], a + lines[second][len(b) :]
    if rng.random() < 0.3:
        lines = [line.replace("    ", "\t", 1) for line in lines]
    return "\n".join(lines)


def _line_endings(rng: random.Random, text: str) -> str:
    ending = rng.choice(["\r", "\r\n", "\r\r\n"])
    if rng.random() < 0.5:
        return text.replace("\n", ending)
    return "".join(line + (ending if rng.random() < 0.5 else "\n") for line in text.split("\n"))


def _odd_character(rng: random.Random, text: str) -> str:
    character = rng.choice(_ODD_CHARACTERS)
    if character == "\ufeff" and rng.random() < 0.7:
        return character + text
    for _ in range(rng.randint(1, 3)):
        text = _insert(rng, text, character)
    return text


def _long_line(rng: random.Random, text: str) -> str:
    line = rng.choice(["x = '" + "a" * 50_000 + "'\n", "#" + " " * 50_000 + "\n", " " * 50_000 + "\n", "y = " + "1," * 25_000 + "\n"])
    lines = text.splitlines(keepends=True) or [""]
    at = rng.randrange(len(lines) + 1)
    return "".join(lines[:at] + [line] + lines[at:])


def _deep_nesting(rng: random.Random, text: str) -> str:
    opener = rng.choice(["(", "[", "{", "f(", "-", "not ", "lambda: "])
    closer = {"(": ")", "[": "]", "{": "}", "f(": ")"}.get(opener, "")
    return _insert(rng, text, "z = " + opener * 500 + "0" + closer * 500 + "\n")


def _blank_lines(rng: random.Random, text: str) -> str:
    return _insert(rng, text, rng.choice(["\n", " \n", "\r\n"]) * 30_000)


_MUTATIONS: dict[str, Callable[[random.Random, str], str]] = {
    "token deleted": _delete_token,
    "bracket inserted": lambda rng, text: _insert(rng, text, rng.choice("()[]{}")),
    "quote inserted": lambda rng, text: _insert(rng, text, rng.choice(["'", '"', "'''", '"""', "f'{"])),
    "colon deleted": lambda rng, text: text.replace(":\n", "\n", 1),
    "indentation swapped": _swap_indentation,
    "line endings": _line_endings,
    "odd character": _odd_character,
    "50k line": _long_line,
    "500-deep nesting": _deep_nesting,
    "30k blank lines": _blank_lines,
}


def _deep_chain(rng: random.Random, name: str, text: str) -> Case:
    """A deep chain at the end of a file that parses: the file's own findings must all stay."""
    kind = rng.choice(list(_CHAINS))
    chain = _CHAINS[kind]()
    if not text.endswith("\n"):
        text += "\n"
    expected = sorted((d.code, d.start) for d in analyze(Source(text)).diagnostics)
    return Case(f"{name} + 500-long {kind}", text + chain, expected=expected)


def _notebook(rng: random.Random, name: str, text: str) -> Case:
    lines = text.splitlines(keepends=True)
    cut = sorted(rng.sample(range(len(lines) + 1), min(2, len(lines) + 1)))
    pieces = ["".join(lines[: cut[0]]), "".join(lines[cut[0] : cut[-1]]), "".join(lines[cut[-1] :])]
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": piece} for piece in pieces]
    notebook = {"cells": cells, "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    breakage = rng.choice(list(_NOTEBOOK_BREAKAGES))
    raw = _NOTEBOOK_BREAKAGES[breakage](rng, notebook)
    return Case(f"{name} notebook {breakage}", raw, notebook=True)


def _dump(notebook) -> str:
    return json.dumps(notebook, indent=1)


_NOTEBOOK_BREAKAGES: dict[str, Callable[[random.Random, dict], str]] = {
    "intact": lambda rng, nb: _dump(nb),
    "source as lines": lambda rng, nb: _dump({**nb, "cells": [{**c, "source": c["source"].splitlines(True)} for c in nb["cells"]]}),
    "truncated": lambda rng, nb: _dump(nb)[: rng.randrange(len(_dump(nb)) + 1)],
    "source not text": lambda rng, nb: _dump({**nb, "cells": [{**c, "source": rng.choice([5, None, [1, None], {"a": 1}])} for c in nb["cells"]]}),
    "cells not a list": lambda rng, nb: _dump({**nb, "cells": {"0": nb["cells"][0]}}),
    "cell not an object": lambda rng, nb: _dump({**nb, "cells": nb["cells"] + [rng.choice([1, "x", None, []])]}),
    "no cell type": lambda rng, nb: _dump({**nb, "cells": [{k: v for k, v in c.items() if k != "cell_type"} for c in nb["cells"]]}),
    "old nbformat": lambda rng, nb: _dump({**nb, "nbformat": rng.choice([3, "4", None, 4.5])}),
    "other language": lambda rng, nb: _dump({**nb, "metadata": {"language_info": {"name": rng.choice(["R", 5, None, ""])}}}),
    "not an object": lambda rng, nb: json.dumps(rng.choice([[], 1, "notebook", None])),
    "magics": lambda rng, nb: _dump({**nb, "cells": [{**c, "source": "%%time\n!ls\nx = !pwd\n%matplotlib inline\n" + c["source"]} for c in nb["cells"]]}),
    "odd characters": lambda rng, nb: _dump({**nb, "cells": [{**c, "source": _odd_character(rng, c["source"])} for c in nb["cells"]]}),
    "deep JSON": lambda rng, nb: "[" * 2_000 + "]" * 2_000,
}


# ---------------------------------------------------------------- the contract


def check(case: Case) -> tuple[list[str], object]:
    """The contract's violations for one case (empty when it holds), and the analysis."""
    problems: list[str] = []
    start = time.process_time()
    try:
        source = _source(case)
        analysis = analyze(source) if source is not None else None
    except Exception as error:  # the contract: nothing escapes
        return [f"raised {type(error).__name__}: {error}"], None
    seconds = time.process_time() - start
    bound = BASE_SECONDS + SECONDS_PER_CHAR * len(case.text)
    if seconds > bound:
        problems.append(f"took {seconds:.2f} s CPU for {len(case.text)} characters (bound {bound:.2f} s)")
    if analysis is None:
        return problems, None
    length = len(analysis.source.text)
    for diagnostic in analysis.diagnostics:
        spans = [(diagnostic.start, diagnostic.end)] + [(r.start, r.end) for r in diagnostic.related]
        if not all(0 <= s <= e <= length for s, e in spans):
            problems.append(f"{diagnostic.code} range {spans} outside the text (length {length})")
    for s, e in analysis.skipped:
        if not 0 <= s <= e <= length:
            problems.append(f"skipped range {(s, e)} outside the text")
    if len(case.text) <= FIXED_TEXT_LIMIT:
        problems += _fix_problems(analysis)
    if case.expected is not None:
        found = sorted((d.code, d.start) for d in analysis.diagnostics)
        if found != case.expected:
            problems.append(f"a deep chain changed the file's findings: {case.expected} -> {found}")
        if analysis.unanalysable:
            problems.append(f"a deep chain made the file unanalysable: {analysis.unanalysable}")
    return problems, analysis


FIXED_TEXT_LIMIT = 20_000  # fixes re-analyse the file several times: offered on the smaller inputs
FIXED_DIAGNOSTICS = 2


def _fix_problems(analysis) -> list[str]:
    problems = []
    length = len(analysis.source.text)
    for diagnostic in analysis.diagnostics[:FIXED_DIAGNOSTICS]:
        try:
            fixes = fixes_for(analysis, diagnostic)
        except Exception as error:
            problems.append(f"fixes for {diagnostic.code} raised {type(error).__name__}: {error}")
            continue
        for fix in fixes:
            if not all(0 <= edit.start <= edit.end <= length for edit in fix.edits):
                problems.append(f"a fix for {diagnostic.code} edits outside the text")
    return problems


def _source(case: Case) -> Source | None:
    if not case.notebook:
        return Source(case.text)
    try:
        return read_notebook(case.text)
    except (NotebookError, RecursionError):  # reported by the CLI as a broken notebook
        return None


def run(seeds: list[int], count: int, progress: Callable[[Report], None] | None = None) -> Report:
    report = Report()
    for seed in seeds:
        for case in cases(seed, count):
            start = time.process_time()
            problems, analysis = check(case)
            seconds = time.process_time() - start
            report.cases += 1
            report.slowest = max(report.slowest, (seconds, case.name))
            if analysis is not None:
                report.findings += len(analysis.diagnostics)
                report.skipped += bool(analysis.skipped)
                report.unanalysable += bool(analysis.unanalysable)
            report.failures += [f"{case.name}: {problem}" for problem in problems]
            if progress:
                progress(report)
    return report
