"""Findings: diagnostics in the 1-based, per-cell coordinates every output format prints.

They are plain data, so worker processes can send them back to the CLI.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from tfscope.diagnostics import Diagnostic, Fix
from tfscope.notebook import cell_position
from tfscope.source import Source


@dataclass(frozen=True)
class Location:
    row: int  # 1-based; within the cell for notebooks
    column: int  # 1-based, in characters


@dataclass(frozen=True)
class FindingEdit:
    content: str
    location: Location
    end_location: Location


@dataclass(frozen=True)
class FindingFix:
    applicability: str  # "safe" | "unsafe" | "display-only"
    message: str
    edits: tuple[FindingEdit, ...]


@dataclass(frozen=True)
class Finding:
    filename: str  # absolute
    display_path: str  # as the user named it (relative to the working folder when inside it)
    code: str
    name: str
    message: str
    severity: str  # "error" | "warning" | "info" | "hint"
    location: Location
    end_location: Location
    cell: int | None  # 1-based index among all cells of a notebook; None for .py
    noqa_row: int | None  # where a `# noqa` for it would go; None when the report does not show it
    source_line: str  # the flagged line, for the code frame of the text format
    fix: FindingFix | None = None
    url: str | None = None

    @property
    def where(self) -> str:
        """``path:row:col`` or, in a notebook, ``path:cell N:row:col``."""
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.display_path}:{cell}{self.location.row}:{self.location.column}"

    @property
    def sort_key(self) -> tuple:
        return (self.display_path, self.cell or 0, self.location.row, self.location.column, self.code)


def finding_for(
    source: Source, diagnostic: Diagnostic, fix: Fix | None, filename: str, display_path: str, noqa_offset: int | None = None
) -> Finding:
    """``noqa_offset``: where a ``# noqa`` for it would go (a multi-line string pushes it down), if asked."""
    cell, location = _location(source, diagnostic.start)
    _, end_location = _location(source, diagnostic.end)
    line = source.line_of(diagnostic.start)
    return Finding(
        filename=filename,
        display_path=display_path,
        code=diagnostic.code,
        name=diagnostic.name,
        message=diagnostic.message,
        severity=diagnostic.severity.value,
        location=location,
        end_location=end_location,
        cell=cell,
        noqa_row=_location(source, noqa_offset)[1].row if noqa_offset is not None else None,
        source_line=source.line_text(line),
        fix=_finding_fix(source, fix) if fix is not None else None,
    )


def _finding_fix(source: Source, fix: Fix) -> FindingFix:
    edits = tuple(
        FindingEdit(edit.new_text, _location(source, edit.start)[1], _location(source, edit.end)[1])
        for edit in sorted(fix.edits, key=lambda edit: (edit.start, edit.end))
    )
    return FindingFix(fix.applicability.value, fix.title, edits)


def _location(source: Source, offset: int) -> tuple[int | None, Location]:
    """(1-based cell number or None, 1-based location in the file or in that cell)."""
    if source.is_notebook:
        cell_index, row, column = cell_position(source, offset)
        return cell_index + 1, Location(row + 1, column + 1)
    line, column = source.position(offset)
    return None, Location(line + 1, column + 1)


def stable_fingerprints(findings: Sequence[Finding]) -> list[str]:
    """One hash per finding that survives edits elsewhere in the file: the rule, the file (and
    cell), the flagged line's text without indentation, and which occurrence of those it is."""
    seen: Counter = Counter()
    fingerprints = []
    for finding in findings:
        identity = (finding.code, finding.display_path, finding.cell, finding.source_line.strip())
        seen[identity] += 1
        fingerprints.append(hashlib.sha256(json.dumps([*identity, seen[identity]]).encode()).hexdigest())
    return fingerprints
