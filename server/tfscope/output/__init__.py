"""Output formats of ``tfscope check``: one function per format, from findings to text."""

from __future__ import annotations

from typing import Callable, Sequence

from tfscope.output import github, gitlab, json_report, junit, pylint, sarif, text
from tfscope.output.findings import (
    Finding,
    FindingEdit,
    FindingFix,
    Location,
    finding_for,
)

Formatter = Callable[[Sequence[Finding], bool], str]  # (sorted findings, unsafe fixes enabled) -> output

FORMATTERS: dict[str, Formatter] = {
    "text": text.full,
    "concise": text.concise,
    "json": json_report.render,
    "sarif": sarif.render,
    "github": github.render,
    "gitlab": gitlab.render,
    "junit": junit.render,
    "pylint": pylint.render,
}
# The formats that show each finding's fix (its edits, its message or the fixable mark): only
# their reports pay for validating fixes (`--statistics` marks fixable rules in every format).
SHOWS_FIXES = frozenset({"text", "concise", "json", "sarif"})
# The formats that print where a `# noqa` for each finding would go: only their reports pay for
# reading the file's comment layout.
SHOWS_NOQA_ROWS = frozenset({"json"})

__all__ = ["FORMATTERS", "SHOWS_FIXES", "SHOWS_NOQA_ROWS", "Finding", "FindingEdit", "FindingFix", "Formatter", "Location", "finding_for"]
