"""The rule corpus: real-looking TF/Keras scripts whose trailing comments say what must be reported.

Conventions (see tests/corpus/README.md):
- `# expect: TFS001, TFS002` on the line where each diagnostic starts; no `# expect:` means silence.
- `# corpus: keras-version=2` / `# corpus: extend-select=TFS010` map onto `tfscope.config.Settings`.
"""

from __future__ import annotations

import ast
import functools
import keyword
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from tfscope import engine
from tfscope.config import Settings
from tfscope.notebook import read_notebook
from tfscope.resolve.project import ProjectResolver
from tfscope.source import Source

CORPUS = Path(__file__).parent / "corpus"
EXAMPLES = Path(__file__).parent.parent / "examples"
RULE_CODES = tuple(f"TFS{number:03d}" for number in range(1, 16))

_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>TFS\d{3}(?:\s*,\s*TFS\d{3})*)\s*$")
_HEADER = re.compile(r"^\s*#\s*corpus:\s*(?P<options>.+?)\s*$")
# examples explain each bug in a comment block that starts with `# BUG TFS001:` above the statement
_BUG = re.compile(r"#\s*BUG\s+(?P<code>TFS\d{3})\b")
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# words on almost every flagged line: a message containing only these names nothing specific
_GENERIC_WORDS = {"tf", "keras", "distribute", "scope", "self", "with", "layers", "optimizers", "metrics"}
# the unfinished line typed at the end of a file by someone still writing it
_BROKEN_TAIL = "model.fit(\n"


@dataclass(frozen=True)
class CorpusFile:
    path: Path
    text: str
    expected: tuple[tuple[int, str], ...]  # sorted (1-based line, code)
    settings: Settings

    @property
    def name(self) -> str:
        return self.path.relative_to(CORPUS).with_suffix("").as_posix()


def _settings_from_headers(text: str) -> Settings:
    """`# corpus: key=value` lines; list values are comma-separated codes."""
    list_options = {"select": "select", "extend-select": "extend_select", "ignore": "ignore"}
    fields: dict[str, object] = {}
    for line in text.splitlines():
        header = _HEADER.match(line)
        if not header:
            continue
        for option in header["options"].split(";"):
            key, _, value = option.strip().partition("=")
            key, value = key.strip(), value.strip()
            if key in list_options:
                fields[list_options[key]] = tuple(code.strip() for code in value.split(",") if code.strip())
            elif key == "keras-version":
                fields["keras_version"] = value
            else:
                raise ValueError(f"unknown corpus option {key!r}")
    return Settings(**fields)


def _load(path: Path) -> CorpusFile:
    text = path.read_text(encoding="utf-8")
    expected = []
    for number, line in enumerate(text.splitlines(), start=1):
        match = _EXPECT.search(line)
        if match:
            expected += [(number, code.strip()) for code in match["codes"].split(",")]
    return CorpusFile(path, text, tuple(sorted(expected)), _settings_from_headers(text))


CORPUS_FILES = [_load(path) for path in sorted(CORPUS.rglob("*.py"))]
POSITIVE_TAIL_FILES = [
    corpus_file
    for corpus_file in CORPUS_FILES
    if corpus_file.expected and corpus_file.name.split("/")[0] in ("tfs001", "tfs002")
]


def _analyze(text: str, corpus_file: CorpusFile):
    source = Source(text=text, path=str(corpus_file.path))
    folder = _project_folder(corpus_file.path)
    if folder is None:
        return source, engine.analyze(source, corpus_file.settings).diagnostics
    # a project case is checked as `tfscope check` checks its clone: rooted there, imports followed
    settings = replace(corpus_file.settings, root=str(folder))
    return source, engine.analyze_following_imports(source, settings, _resolver(folder)).diagnostics


def _project_folder(path: Path) -> Path | None:
    """The `*_project*` folder a corpus file belongs to, if any."""
    return next((folder for folder in path.parents if "_project" in folder.name and CORPUS in folder.parents), None)


@functools.cache
def _resolver(folder: Path) -> ProjectResolver:
    return ProjectResolver(root=str(folder))


def _reported(source: Source, diagnostics) -> list[tuple[int, str]]:
    return sorted((source.position(diagnostic.start)[0] + 1, diagnostic.code) for diagnostic in diagnostics)


def _mismatch_report(corpus_file: CorpusFile, expected, actual, text: str) -> str:
    numbered = "\n".join(f"{number:3d}  {line}" for number, line in enumerate(text.splitlines(), start=1))
    return (
        f"{corpus_file.name}\n  expected (line, code): {list(expected)}\n"
        f"  reported (line, code): {list(actual)}\n{numbered}"
    )


def _names_bound_in(text: str) -> set[str]:
    """Variables, attributes, functions and classes the file defines: what a message can name."""
    names = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
    return names


def _nameable(source: Source, offsets) -> set[str]:
    """Names on the flagged and related lines, plus every name the file binds."""
    names = _names_bound_in(source.text)
    for offset in offsets:
        line_text = source.line_text(source.position(offset)[0])
        names |= {name for name in _IDENTIFIER.findall(line_text.split("#")[0]) if not keyword.iskeyword(name)}
    return names - _GENERIC_WORDS


@pytest.mark.parametrize("corpus_file", CORPUS_FILES, ids=lambda corpus_file: corpus_file.name)
def test_corpus_file_reports_exactly_what_it_expects(corpus_file: CorpusFile) -> None:
    source, diagnostics = _analyze(corpus_file.text, corpus_file)
    actual = _reported(source, diagnostics)
    assert actual == list(corpus_file.expected), _mismatch_report(
        corpus_file, corpus_file.expected, actual, corpus_file.text
    )
    for diagnostic in diagnostics:
        names = _nameable(source, [diagnostic.start, *(related.start for related in diagnostic.related)])
        words = set(_IDENTIFIER.findall(diagnostic.message))
        assert diagnostic.message.strip() and names & words, (
            f"{corpus_file.name}: {diagnostic.code} message {diagnostic.message!r} names none of {sorted(names)}"
        )


@pytest.mark.parametrize("corpus_file", POSITIVE_TAIL_FILES, ids=lambda corpus_file: corpus_file.name)
def test_broken_last_line_keeps_the_diagnostics_above_it(corpus_file: CorpusFile) -> None:
    text = corpus_file.text if corpus_file.text.endswith("\n") else corpus_file.text + "\n"
    broken_line = text.count("\n") + 1
    source, diagnostics = _analyze(text + _BROKEN_TAIL, corpus_file)
    above = [(line, code) for line, code in _reported(source, diagnostics) if line < broken_line]
    assert above == list(corpus_file.expected), _mismatch_report(
        corpus_file, corpus_file.expected, above, text + _BROKEN_TAIL
    )


def test_corpus_covers_every_rule_with_positives_and_quiet_files() -> None:
    positive_codes = {code for corpus_file in CORPUS_FILES for _, code in corpus_file.expected}
    assert positive_codes == set(RULE_CODES)
    for code in RULE_CODES:
        assert any(f.name.startswith(code.lower() + "/") and f.expected for f in CORPUS_FILES), code
    quiet_files = [f for f in CORPUS_FILES if f.name.startswith("quiet/")]
    assert len(quiet_files) >= 20
    assert all(not f.expected for f in quiet_files), "quiet/ files must not expect diagnostics"


def test_every_corpus_file_is_valid_python() -> None:
    for corpus_file in CORPUS_FILES:
        compile(corpus_file.text, str(corpus_file.path), "exec")


def _expected_from_bug_comments(text: str) -> list[tuple[int, str]]:
    """Each `# BUG TFSxxx` points at the first code line after its comment block."""
    lines = text.splitlines()
    expected = []
    for index, line in enumerate(lines):
        bug = _BUG.search(line)
        if not bug:
            continue
        target = index + 1
        while target < len(lines) and (not lines[target].strip() or lines[target].lstrip().startswith("#")):
            target += 1
        expected.append((target + 1, bug["code"]))
    return sorted(expected)


EXAMPLE_FILES = sorted([*EXAMPLES.glob("*.py"), *EXAMPLES.glob("*.ipynb")])


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda example: example.name)
def test_example_reports_exactly_its_commented_bugs(example: Path) -> None:
    raw = example.read_text(encoding="utf-8")
    source = read_notebook(raw, str(example)) if example.suffix == ".ipynb" else Source(text=raw, path=str(example))
    actual = _reported(source, engine.analyze(source).diagnostics)
    expected = _expected_from_bug_comments(source.text)
    assert actual == expected, f"{example.name}\n  commented bugs: {expected}\n  reported: {actual}"


def test_examples_show_both_buggy_and_correct_scripts() -> None:
    bug_counts = [len(_expected_from_bug_comments(path.read_text(encoding="utf-8"))) for path in EXAMPLE_FILES]
    assert any(bug_counts) and not all(bug_counts)
    assert any(path.suffix == ".ipynb" for path in EXAMPLE_FILES)
