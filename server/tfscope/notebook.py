"""Notebooks as one program: code cells concatenated in order, IPython syntax masked.

Every code cell is followed by one "\\n" separator that belongs to no cell, so an offset in a
cell's text maps to ``cell.start + offset`` in the concatenated text and back.
"""

from __future__ import annotations

import json
import os
import re
from typing import Iterable, Sequence

from tfscope.diagnostics import Edit
from tfscope.fixes.edits import apply_edits
from tfscope.source import LAST_MODIFIED, Cell, RecordedRun, Source


class NotebookError(ValueError):
    """The file is not a notebook tfscope can read; the message says why."""


CELL_SEPARATOR = "\n"

# Cell magics whose body is ordinary Python run in this kernel: only their first line is masked.
PYTHON_BODY_CELL_MAGICS = frozenset(
    {"time", "timeit", "capture", "prun", "debug", "memit", "snakeviz", "tensorflow_version"}
)

_CELL_MAGIC = re.compile(r"[ \t]*%%(\w+)")
# ``files = !ls``, ``x, y = %time f()``: the target starts with a non-blank and no two repeats
# overlap (the target cannot hold "="), so a line of 50,000 spaces is one linear scan
_SYSTEM_OR_MAGIC_ASSIGNMENT = re.compile(r"[ \t]*[\w.\[\]'\",][\w.\[\]'\", \t]*=[ \t]*[!%]")
# Where an IPython-only line may be (a line starting with `%`, `!` or `?`, `x = !cmd`, a `?`
# anywhere): a cell without one is Python as it stands.
_IPYTHON_CANDIDATE = re.compile(r"(?:^|(?<=\r))(?:[ \t]*[%!?]|" + _SYSTEM_OR_MAGIC_ASSIGNMENT.pattern + r")|\?",
                                re.MULTILINE)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_OPENING_BRACKETS = "([{"
_SCANNED = re.compile(r"[#'\"()\[\]{}\\]")  # what the scanner acts on besides the last character
_CLOSING_BRACKETS = ")]}"


def notebook_source(cells: Sequence[tuple[int, str, str | None]], path: str | None = None) -> Source:
    """One Source for a notebook's code cells: (index among all cells, text, cell uri or None)."""
    pieces: list[str] = []
    masked: list[str] = []
    recorded: list[Cell] = []
    offset = 0
    for index, text, uri in cells:
        recorded.append(Cell(index=index, start=offset, end=offset + len(text), uri=uri))
        pieces += [text, CELL_SEPARATOR]
        masked += [mask_ipython(text), CELL_SEPARATOR]
        offset += len(text) + len(CELL_SEPARATOR)
    return Source(text="".join(pieces), code="".join(masked), path=path, cells=tuple(recorded))


def mask_ipython(cell_text: str) -> str:
    """The cell with IPython-only syntax replaced by ``0`` + spaces: same length, same lines."""
    if not _IPYTHON_CANDIDATE.search(cell_text):
        return cell_text
    lines = _split_keeping_breaks(cell_text)
    first_code_line = next((number for number, line in enumerate(lines) if line.strip()), None)
    cell_magic = _CELL_MAGIC.match(lines[first_code_line]) if first_code_line is not None else None
    if cell_magic and cell_magic.group(1) not in PYTHON_BODY_CELL_MAGICS:
        # not Python at all (%%bash, %%writefile...): column 0, so indented lines stay valid
        return "".join(_masked_line(line, keep_indent=False) for line in lines)
    scanner = _LogicalLineScanner()
    masked: list[str] = []
    continues_magic = False
    for number, line in enumerate(lines):
        at_cell_magic = number == first_code_line and cell_magic is not None
        if continues_magic:
            masked.append(_blanked_line(line))  # a blank line is valid at any indentation
        elif at_cell_magic or (scanner.at_line_start and _is_ipython_line(line)):
            masked.append(_masked_line(line))
        else:
            masked.append(line)
            scanner.feed(line)
        continues_magic = masked[-1] != line and _content(line).endswith("\\")
    return "".join(masked)


def _is_ipython_line(line: str) -> bool:
    stripped = _content(line).strip()
    if not stripped:
        return False
    if stripped[0] in "%!?" or _SYSTEM_OR_MAGIC_ASSIGNMENT.match(line):
        return True
    return _ends_with_help_mark(_content(line))


def _ends_with_help_mark(line: str) -> bool:
    """``obj?`` / ``obj??``: a ``?`` ending the code of the line (outside strings and comments)."""
    if "?" not in line:
        return False
    scanner = _LogicalLineScanner()
    scanner.feed(line)
    return scanner.last_code_char == "?"


def _masked_line(line: str, keep_indent: bool = True) -> str:
    content = _content(line)
    indent = len(content) - len(content.lstrip(" \t")) if keep_indent else 0
    body = content[indent:]
    if not body:
        return line
    return content[:indent] + "0" + " " * (len(body) - 1) + line[len(content) :]


def _blanked_line(line: str) -> str:
    content = _content(line)
    return " " * len(content) + line[len(content) :]


def _content(line: str) -> str:
    return line.rstrip("\r\n")


def _split_keeping_breaks(text: str) -> list[str]:
    """Lines with their breaks, splitting only where ast and LSP see a line break."""
    lines: list[str] = []
    start = 0
    for match in _LINE_BREAK.finditer(text):
        lines.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        lines.append(text[start:])
    return lines


class _LogicalLineScanner:
    """Just enough of Python's tokenizer to know whether the next line starts a logical line."""

    def __init__(self) -> None:
        self.open_quote: str | None = None  # the quote of a string still open at the line end
        self.bracket_depth = 0
        self.backslash_continues = False
        self.last_code_char = ""

    @property
    def at_line_start(self) -> bool:
        return self.open_quote is None and self.bracket_depth == 0 and not self.backslash_continues

    def feed(self, line: str) -> None:
        content = _content(line)
        self.backslash_continues = False
        if self.open_quote is None and not _SCANNED.search(content):  # most lines: one C-speed look
            if stripped := content.rstrip():
                self.last_code_char = stripped[-1]
            return
        if self.open_quote and self.open_quote not in content and "\\" not in content:
            return  # a line inside a multi-line string
        position = 0
        while position < len(content):
            char = content[position]
            if self.open_quote:
                if char == "\\":
                    position += 2
                    continue
                if content.startswith(self.open_quote, position):
                    position += len(self.open_quote)
                    self.open_quote = None
                    continue
                position += 1
                continue
            if char == "#":
                break
            if char in "'\"":
                triple = content[position : position + 3]
                self.open_quote = triple if triple in ('"""', "'''") else char
                position += len(self.open_quote)
                continue
            if char in _OPENING_BRACKETS:
                self.bracket_depth += 1
            elif char in _CLOSING_BRACKETS:
                self.bracket_depth = max(self.bracket_depth - 1, 0)
            if char == "\\" and position == len(content) - 1:
                self.backslash_continues = True
            elif not char.isspace():
                self.last_code_char = char
            position += 1
        if self.open_quote in ("'", '"'):
            self.open_quote = None  # a one-line string cannot continue (unless escaped; rare)


def read_notebook(raw: str, path: str | None = None) -> Source:
    """The Source of an ``.ipynb`` file's code cells; NotebookError when it is not one."""
    notebook = _parse_notebook(raw)
    cells = [
        (index, _cell_text(cell, index), None)
        for index, cell in enumerate(notebook["cells"])
        if cell.get("cell_type") == "code"
    ]
    source = notebook_source(cells, path=path)
    source.recorded = _recorded_run(notebook)
    return source


def saved_run(path: str) -> RecordedRun:
    """What the notebook file at ``path`` records of its last run (nothing when unreadable, or so
    large that parsing it would hold up the editor's open or save)."""
    try:
        if os.path.getsize(path) > _SAVED_RUN_MAX_BYTES:
            return RecordedRun()
        with open(path, encoding="utf-8", errors="replace") as handle:
            return _recorded_run(_parse_notebook(handle.read()))
    except (OSError, NotebookError, RecursionError):
        return RecordedRun()


_SAVED_RUN_MAX_BYTES = 16 * 1024 * 1024  # about 0.1 s of JSON parsing; notebooks with outputs are rarely larger


def _recorded_run(notebook: dict) -> RecordedRun:
    tensorflow, shown_by = _recorded_tensorflow_version(notebook["cells"])
    return RecordedRun(tensorflow, shown_by, _recorded_python_version(notebook.get("metadata")),
                       _last_modified_header(notebook["cells"]), _recorded_keras(notebook["cells"]))


# The progress bar each Keras prints in `fit`: `12/12 [==============================] - 2s 9ms/step`
# (Keras 2, keras/utils/generic_utils.py Progbar) and `12/12 ━━━━━━━━━━━━━━━━━━━━ 2s 9ms/step` (Keras 3,
# keras/src/utils/progbar.py)
_PROGRESS_BARS = ((2, re.compile(r"^\s*\d+/\d+ \[[=>.]+\] - ", re.MULTILINE)),
                  (3, re.compile(r"^\s*\d+/\d+ \u2501+", re.MULTILINE)))
_TERMINAL_STYLE = re.compile(r"\x1b\[[0-9;]*m")  # Keras 3 prints its bar bold and coloured


def _recorded_keras(cells: list) -> int | None:
    """The Keras major whose progress bar a code cell's output shows (None when none, or both)."""
    shown = set()
    for cell in cells:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            for output in cell.get("outputs") or ():
                printed = _TERMINAL_STYLE.sub("", _output_text(output))
                shown.update(major for major, bar in _PROGRESS_BARS if bar.search(printed))
    return shown.pop() if len(shown) == 1 else None


_HEADER_CELLS = 3  # a dated header sits in the title cells


def _last_modified_header(cells: list) -> str | None:
    """The `Last modified: ...` line of the first markdown cells, as keras-io's notebooks open."""
    for cell in [cell for cell in cells if isinstance(cell, dict) and cell.get("cell_type") == "markdown"][:_HEADER_CELLS]:
        source = cell.get("source")
        text = "".join(source) if isinstance(source, list) else source if isinstance(source, str) else ""
        if match := LAST_MODIFIED.search(text):
            return match.group(0)
    return None


def _recorded_python_version(metadata: object) -> str | None:
    """`language_info.version`, which the kernel writes when it saves the notebook."""
    language = metadata.get("language_info") if isinstance(metadata, dict) else None
    version = language.get("version") if isinstance(language, dict) else None
    return version if isinstance(version, str) else None


# `2.4.1` printed, or `'2.2.0-rc2'` displayed as a cell's value (its repr, a pre-release suffix kept out)
_VERSION_OUTPUT = re.compile(r"^\s*(?:TensorFlow(?: version)?:?\s*)?(['\"]?)(2\.\d+\.\d+)(?:-?(?:rc|dev)\w*)?\1\s*$",
                             re.MULTILINE | re.IGNORECASE)
# What only TensorFlow 2.0-2.1 printed when a notebook ran: (pattern, what it is)
_ERA_OUTPUTS = (
    (re.compile(r"[/\\]tensorflow_core[/\\]"), "paths into `tensorflow_core`, the package TensorFlow 2.0-2.1 installed"),
    (re.compile(r"^Train for \d+ steps", re.MULTILINE), "`Train for N steps`, the `fit` header of TensorFlow 2.0-2.1"),
)
_ERA_VERSION = "2.1"


def _recorded_tensorflow_version(cells: list) -> tuple[str | None, str]:
    """(version, what in the output shows it): a cell that prints `tf.__version__`, or what only
    TensorFlow 2.0-2.1 printed (its package paths in warnings and tracebacks, its `fit` header)."""
    era = ""
    for cell in cells:
        if cell.get("cell_type") != "code":
            continue
        source = cell.get("source")
        text = "".join(source) if isinstance(source, list) else source if isinstance(source, str) else ""
        for output in cell.get("outputs") or ():
            printed = _output_text(output)
            if "tf.__version__" in text and (match := _VERSION_OUTPUT.search(printed)):
                return match.group(2), f"TensorFlow {match.group(2)}"
            era = era or next((shown for pattern, shown in _ERA_OUTPUTS if pattern.search(printed)), "")
    return (_ERA_VERSION, era) if era else (None, "")


def _output_text(output) -> str:
    """A cell output's printed text, stream or traceback."""
    if not isinstance(output, dict):
        return ""
    parts = [output.get("text"), output.get("traceback"), (output.get("data") or {}).get("text/plain")
             if isinstance(output.get("data"), dict) else None]
    return "\n".join("".join(part) if isinstance(part, list) else part for part in parts if isinstance(part, (str, list)))


def _parse_notebook(raw: str) -> dict:
    try:
        notebook = json.loads(raw)
    except json.JSONDecodeError as error:
        raise NotebookError(f"not valid notebook JSON: {error}") from None
    if not isinstance(notebook, dict):
        raise NotebookError("not a notebook: the JSON document is not an object")
    major = notebook.get("nbformat")
    if major is not None and (not isinstance(major, int) or major < 4):
        raise NotebookError(f"unsupported nbformat {major!r}: tfscope reads nbformat 4")
    if not isinstance(notebook.get("cells"), list):
        raise NotebookError("not a notebook: no 'cells' list")
    language = _notebook_language(notebook.get("metadata"))
    if language is not None and language.lower().rstrip("0123456789") not in _PYTHON_LANGUAGES:
        raise NotebookError(f"not a Python notebook (language: {language})")
    for index, cell in enumerate(notebook["cells"]):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {index + 1} is not an object")
    return notebook


_PYTHON_LANGUAGES = frozenset({"python", "ipython"})


def _notebook_language(metadata: object) -> str | None:
    """The notebook's language: Python when any field that names it says so (a PySpark kernel's
    `language_info` names `pyspark`, its kernel spec and lexer `python`), else the first named."""
    if not isinstance(metadata, dict):
        return None
    named = [value[key] for section, key in (("language_info", "name"), ("kernelspec", "language"),
                                             ("language_info", "pygments_lexer"))
             if isinstance(value := metadata.get(section, {}), dict) and isinstance(value.get(key), str)]
    return next((name for name in named if name.lower().rstrip("0123456789") in _PYTHON_LANGUAGES),
                named[0] if named else None)


def _cell_text(cell: dict, index: int) -> str:
    source = cell.get("source", "")
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        return "".join(source)
    raise NotebookError(f"cell {index + 1}: 'source' is neither a string nor a list of strings")


def edited_source(source: Source, edits: Iterable[Edit]) -> Source:
    """The notebook Source after ``edits`` (offsets into ``source.text``, none crossing cells).

    An edit belongs to the cell whose span [start, end] holds its start, so text inserted at a
    cell's very end stays in that cell (a move into the previous cell's scope block).
    """
    by_cell: dict[int, list[Edit]] = {}
    for edit in edits:
        cell = source.cell_at(edit.start)
        if cell is None or edit.end > cell.end:
            raise ValueError(f"edit {edit} is not inside one notebook cell")
        by_cell.setdefault(cell.index, []).append(
            Edit(edit.start - cell.start, edit.end - cell.start, edit.new_text)
        )
    cells = [
        (cell.index, _apply_in_cell(source.text[cell.start : cell.end], by_cell.get(cell.index, [])), cell.uri)
        for cell in source.cells
    ]
    return notebook_source(cells, path=source.path)


def _apply_in_cell(text: str, edits: list[Edit]) -> str:
    return apply_edits(text, edits) if edits else text


def updated_notebook(raw: str, source: Source) -> str:
    """The notebook JSON with each code cell's ``source`` replaced by its text in ``source``.

    ``source`` is this notebook's Source, usually after ``edited_source``. Only changed cells
    are rewritten; indent, key order, outputs and the trailing newline are kept.
    """
    notebook = _parse_notebook(raw)
    changed = False
    for cell in source.cells:
        stored = notebook["cells"][cell.index]
        new_text = source.text[cell.start : cell.end]
        if _cell_text(stored, cell.index) == new_text:
            continue
        changed = True
        # Jupyter stores a list of lines ending with their breaks (nbformat's splitlines(True))
        stored["source"] = new_text.splitlines(keepends=True) if isinstance(stored.get("source"), list) else new_text
    if not changed:
        return raw
    indent = _json_indent(raw)
    dumped = json.dumps(notebook, indent=indent, ensure_ascii=_is_ascii_escaped(raw))
    return dumped + ("\n" if raw.endswith("\n") else "")


def _json_indent(raw: str) -> int | None:
    """The indent width the notebook was written with (Jupyter writes 1), None for compact JSON."""
    match = re.search(r"\{\s*?\n([ \t]+)\"", raw)
    return len(match.group(1)) if match else None


def _is_ascii_escaped(raw: str) -> bool:
    return raw.isascii() and "\\u" in raw


def cell_position(source: Source, offset: int) -> tuple[int, int, int]:
    """(cell index among all cells, 0-based row in the cell, column) of a notebook offset."""
    if not source.cells:
        raise ValueError("cell_position needs a notebook Source")
    cell = source.cell_at(offset) or _last_cell_before(source.cells, offset)
    line, column = source.position(offset)
    return cell.index, line - source.line_of(cell.start), column


def _last_cell_before(cells: Sequence[Cell], offset: int) -> Cell:
    earlier = [cell for cell in cells if cell.start <= offset]
    return earlier[-1] if earlier else cells[0]
