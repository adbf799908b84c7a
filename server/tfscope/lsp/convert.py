"""Engine offsets <-> LSP positions, for plain files and notebook cells, in any position encoding.

The engine speaks code-point offsets into ``Source.text``; a notebook Source is its code cells
concatenated, so a position inside a cell document is relative to that cell's first line.
"""

from __future__ import annotations

from typing import NamedTuple

from lsprotocol import types

from tfscope.diagnostics import Diagnostic, Edit, Severity
from tfscope.source import Cell, Source

SOURCE_NAME = "tfscope"

LSP_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}

# how many units one character takes, per negotiated position encoding
_UNIT_COUNTERS = {
    # a lone surrogate an editor sent takes three bytes (its code point, as the client encodes it)
    types.PositionEncodingKind.Utf8: lambda char: len(char.encode("utf-8", "surrogatepass")),
    types.PositionEncodingKind.Utf16: lambda char: 2 if ord(char) > 0xFFFF else 1,
    types.PositionEncodingKind.Utf32: lambda char: 1,
}


def _unit_counter(encoding: str):
    return _UNIT_COUNTERS.get(encoding, _UNIT_COUNTERS[types.PositionEncodingKind.Utf16])


class DocumentView(NamedTuple):
    """One editor document seen inside a Source: a whole file, or one notebook cell."""

    uri: str
    source: Source
    cell: Cell | None = None
    encoding: str = types.PositionEncodingKind.Utf16

    @property
    def first_line(self) -> int:
        return self.source.line_of(self.cell.start) if self.cell else 0

    @property
    def start(self) -> int:
        return self.cell.start if self.cell else 0

    @property
    def end(self) -> int:
        return self.cell.end if self.cell else len(self.source.text)

    def contains(self, start: int, end: int) -> bool:
        return self.start <= start and end <= self.end

    def position(self, offset: int) -> types.Position:
        line, column = self.source.position(offset)
        line_start = self.source.line_start(line)
        prefix = self.source.text[line_start : line_start + column]
        if prefix.isascii():  # one unit per character in every encoding
            return types.Position(line=line - self.first_line, character=len(prefix))
        count = _unit_counter(self.encoding)
        return types.Position(line=line - self.first_line, character=sum(count(char) for char in prefix))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(start=self.position(start), end=self.position(end))

    def offset(self, position: types.Position) -> int:
        """Code-point offset of an editor position (clamped to the line and to this document)."""
        line = self.first_line + position.line
        line_start = self.source.line_start(line)
        text = self.source.text[line_start : self.source.line_end(line)]
        count = _unit_counter(self.encoding)
        units = 0
        for index, char in enumerate(text):
            if units >= position.character:
                return min(max(line_start + index, self.start), self.end)
            units += count(char)
        return min(max(line_start + len(text), self.start), self.end)


def to_lsp_diagnostic(
    view: DocumentView,
    diagnostic: Diagnostic,
    data: dict,
    docs_url: str | None,
    related_views: list[DocumentView],
) -> types.Diagnostic:
    """``related_views`` are every document of the same Source, to place related locations."""
    related = []
    for item in diagnostic.related:
        owner = next((other for other in related_views if other.contains(item.start, item.end)), None)
        if owner is not None:
            location = types.Location(uri=owner.uri, range=owner.range(item.start, item.end))
            related.append(types.DiagnosticRelatedInformation(location=location, message=item.message))
    return types.Diagnostic(
        range=view.range(diagnostic.start, diagnostic.end),
        message=diagnostic.message,
        severity=LSP_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        code_description=types.CodeDescription(href=rule_url(docs_url, diagnostic.code)) if docs_url else None,
        source=SOURCE_NAME,
        related_information=related or None,
        tags=[types.DiagnosticTag.Unnecessary] if diagnostic.unnecessary else None,
        data=data,
    )


def rule_url(docs_url: str, code: str) -> str:
    """``docsUrl`` may hold ``{code}`` (lower-cased rule code) or be a base URL."""
    if "{code}" in docs_url:
        return docs_url.replace("{code}", code.lower())
    return f"{docs_url.rstrip('/')}/{code.lower()}"


def to_text_edits(view: DocumentView, edits: list[Edit]) -> list[types.TextEdit]:
    return [types.TextEdit(range=view.range(edit.start, edit.end), new_text=edit.new_text) for edit in edits]
