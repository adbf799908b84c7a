"""Notebook cells by pull: what each pulled cell was last answered, to know when to ask for a refresh.

A notebook is analysed as a whole, so an edit in one cell can change another cell's findings;
a pulling client re-pulls only the cell it edited. A cell's findings are pushed until the client
first pulls that cell (VS Code's client pulls no cells: it keeps getting pushes), then only
answered by pull, never both.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import attrs
from lsprotocol import types


class Answer(NamedTuple):
    """What one pull of a cell returned, and the cell's version in the editor then (with
    ``run: onSave`` the findings may be of an older, saved text)."""

    editor_version: int | None
    diagnostics: tuple[types.Diagnostic, ...]


def _as_shown(diagnostics) -> tuple[types.Diagnostic, ...]:
    """Without ``data`` (it names the analysis, new with every run): what the editor displays."""
    return tuple(attrs.evolve(diagnostic, data=None) for diagnostic in diagnostics)


class CellPulls:
    def __init__(self) -> None:
        self.answered: dict[str, dict[str, Answer]] = {}  # notebook key -> cell uri -> last answer

    def is_pulled(self, key: str, cell_uri: str) -> bool:
        return cell_uri in self.answered.get(key, {})

    def report(self, key: str, cell_uri: str, result, editor_version: int | None, previous_result_id: str | None):
        """The cell's findings in ``result`` (a notebook analysis), remembered as answered."""
        diagnostics = result.diagnostics.get(cell_uri, [])
        self.answered.setdefault(key, {})[cell_uri] = Answer(editor_version, _as_shown(diagnostics))
        if previous_result_id == result.id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.id)
        return types.RelatedFullDocumentDiagnosticReport(items=diagnostics, result_id=result.id)

    def needs_refresh(self, result, editor_version: Callable[[str], int | None]) -> bool:
        """Whether a pulled cell not edited since its last answer has other findings in ``result``:
        the client would not pull it again by itself. Counts those findings as answered, so one
        refresh is asked for per change."""
        answered = self.answered.get(result.snapshot.key, {})
        stale = [
            uri
            for uri, answer in answered.items()
            if uri in result.diagnostics
            and editor_version(uri) == answer.editor_version
            and _as_shown(result.diagnostics[uri]) != answer.diagnostics
        ]
        for uri in stale:
            answered[uri] = Answer(answered[uri].editor_version, _as_shown(result.diagnostics[uri]))
        return bool(stale)

    def pulled(self, key: str) -> set[str]:
        return set(self.answered.get(key, {}))

    def keep_only(self, key: str, cell_uris: set[str]) -> None:
        """Cells removed from the notebook are forgotten (a cell added again is pushed until pulled)."""
        if key in self.answered:
            self.answered[key] = {uri: answer for uri, answer in self.answered[key].items() if uri in cell_uris}

    def forget(self, key: str) -> None:
        self.answered.pop(key, None)
