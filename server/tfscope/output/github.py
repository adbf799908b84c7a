"""GitHub Actions workflow commands: one annotation per finding."""

from __future__ import annotations

from typing import Sequence

from tfscope.output.findings import Finding

ANNOTATION_LEVELS = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return "".join(_annotation(finding) + "\n" for finding in findings)


def _annotation(finding: Finding) -> str:
    properties = {
        "title": f"tfscope ({finding.code})",
        "file": finding.display_path,
        "line": finding.location.row,
        "col": finding.location.column,
        "endLine": finding.end_location.row,
        "endColumn": finding.end_location.column,
    }
    listed = ",".join(f"{key}={_escape_property(str(value))}" for key, value in properties.items())
    cell = f" (cell {finding.cell})" if finding.cell is not None else ""
    return f"::{ANNOTATION_LEVELS[finding.severity]} {listed}::{_escape_data(f'{finding.code} {finding.message}{cell}')}"


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")
