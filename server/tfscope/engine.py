"""The one entry point: text in, diagnostics (with validated fixes) out."""

from __future__ import annotations

from dataclasses import dataclass, field

from tfscope.config import DEFAULT_SETTINGS, Settings
from tfscope.diagnostics import Diagnostic, Fix
from tfscope.source import Source


@dataclass
class Analysis:
    source: Source
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # name bindings of variable owners: (start, end, description) for hovers
    placements: list[tuple[int, int, str]] = field(default_factory=list)

    def placement_at(self, offset: int) -> str | None:
        for start, end, description in self.placements:
            if start <= offset <= end:
                return description
        return None


def analyze(source: Source, settings: Settings = DEFAULT_SETTINGS) -> Analysis:
    """Analyse one file or notebook. Never raises on bad input; never runs user code."""
    return Analysis(source=source)


def fixes_for(analysis: Analysis, diagnostic: Diagnostic) -> list[Fix]:
    """The validated fixes for one diagnostic, computed on demand (not on every keystroke)."""
    return []


def noqa_fix(analysis: Analysis, diagnostic: Diagnostic) -> Fix:
    """"Ignore TFSxxx on this line", merged into an existing ``# noqa: ...``."""
    raise NotImplementedError
