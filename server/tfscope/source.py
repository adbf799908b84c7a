"""Source text with a line index that converts between ast, offset and editor coordinates.

Offsets are code-point indices into ``text``. ``code`` is the same text with notebook magics
masked: same length and the same line breaks, so every offset means the same in both.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # the line ends both ast and LSP recognise
# A dated header (`Last modified: 2020/07/16`, `**Last updated:** 2021-03-02`): keras-io's examples
# and guides open with one, and the many copies of them keep it
LAST_MODIFIED = re.compile(r"\bLast (?:modified|updated)\W{0,6}\s*((?:19|20)\d\d)[/-](\d\d?)[/-](\d\d?)\b",
                           re.IGNORECASE)


@dataclass(frozen=True)
class Cell:
    """A notebook code cell inside the concatenated text: ``text[start:end]`` is its source."""

    index: int  # 0-based index among all cells of the notebook (markdown cells included)
    start: int
    end: int
    uri: str | None = None  # set by the language server for notebook cell documents


class RecordedRun(NamedTuple):
    """What a notebook file records of its last run: an editor sends its cells without it."""

    # the TensorFlow version it printed (`print(tf.__version__)`, or its era)
    tensorflow: str | None = None
    tensorflow_shown_by: str = ""  # what in its output shows that version
    python: str | None = None  # the Python of the kernel that last saved it (`language_info`)
    # the `Last modified: 2020/07/16` header of its markdown (keras-io's examples carry one)
    last_modified: str | None = None
    keras: int | None = None  # the Keras major whose `fit` progress bar its output shows


@dataclass
class Source:
    text: str
    code: str = ""
    path: str | None = None
    cells: tuple[Cell, ...] = ()
    recorded: RecordedRun = RecordedRun()
    _line_starts: list[int] = field(init=False, repr=False)
    _ascii: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.code:
            self.code = self.text
        if len(self.code) != len(self.text):
            raise ValueError("masked code must keep the length of the text")
        if "\r" in self.text:
            self._line_starts = [0] + [match.end() for match in _LINE_BREAK.finditer(self.text)]
        else:  # the usual text: splitting is several times faster than matching each break
            self._line_starts = [0, *itertools.accumulate(len(line) + 1 for line in self.text.split("\n")[:-1])]
        self._ascii = self.text.isascii()

    @property
    def is_notebook(self) -> bool:
        return bool(self.cells)

    @property
    def line_count(self) -> int:
        return len(self._line_starts)

    def line_start(self, line: int) -> int:
        """Offset of the first character of 0-based ``line`` (clamped to the text)."""
        if line >= len(self._line_starts):
            return len(self.text)
        return self._line_starts[max(line, 0)]

    def line_end(self, line: int) -> int:
        """Offset just past the last character of ``line``, before its line break."""
        start = self.line_start(line)
        end = self._line_starts[line + 1] if 0 <= line + 1 < len(self._line_starts) else len(self.text)
        text = self.text
        while end > start and text[end - 1] in "\r\n":
            end -= 1
        return end

    def line_text(self, line: int) -> str:
        return self.text[self.line_start(line) : self.line_end(line)]

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset) - 1

    def offset_from_ast(self, lineno: int, col_offset: int) -> int:
        """ast positions are 1-based lines and UTF-8 byte columns."""
        start, end = self.line_start(lineno - 1), self.line_end(lineno - 1)
        if self._ascii:  # a byte is a character
            return min(start + col_offset, end)
        line = self.text[start:end]
        if line.isascii():
            return start + min(col_offset, len(line))
        # a lone surrogate (from an editor) counts three bytes, as its stand-in did for the parser
        encoded = line.encode("utf-8", "surrogatepass")[:col_offset]
        try:
            prefix = encoded.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:  # a column inside a character: count the whole ones before it
            prefix = encoded.decode("utf-8", errors="ignore")
        return start + len(prefix)

    def node_span(self, node) -> tuple[int, int]:
        """Start and end offsets of an ast node."""
        start = self.offset_from_ast(node.lineno, node.col_offset)
        end_line = getattr(node, "end_lineno", None) or node.lineno
        end_col = getattr(node, "end_col_offset", None)
        end = self.offset_from_ast(end_line, end_col) if end_col is not None else self.line_end(end_line - 1)
        return start, end

    def position(self, offset: int) -> tuple[int, int]:
        """0-based line and code-point column of ``offset``."""
        line = self.line_of(offset)
        return line, offset - self._line_starts[line]

    def utf16_position(self, offset: int) -> tuple[int, int]:
        """0-based line and UTF-16 code-unit column, as LSP counts by default."""
        line, _ = self.position(offset)
        prefix = self.text[self._line_starts[line] : offset]
        return line, utf16_length(prefix)

    def offset_from_utf16(self, line: int, character: int) -> int:
        start = self.line_start(line)
        text = self.text[start : self.line_end(line)]
        units = 0
        for index, char in enumerate(text):
            if units >= character:
                return start + index
            units += 2 if ord(char) > 0xFFFF else 1
        return start + len(text)

    def cell_at(self, offset: int) -> Cell | None:
        for cell in self.cells:
            if cell.start <= offset <= cell.end:
                return cell
        return None


def utf16_length(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)
