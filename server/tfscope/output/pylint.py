"""pylint's parseable format, ``path:row: [CODE] message`` (as ruff's `pylint`)."""

from __future__ import annotations

from typing import Sequence

from tfscope.output.findings import Finding


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return "".join(
        f"{finding.display_path}:{_cell(finding)}{finding.location.row}: [{finding.code}] {finding.message}\n"
        for finding in findings
    )


def _cell(finding: Finding) -> str:
    return f"cell {finding.cell}:" if finding.cell is not None else ""
