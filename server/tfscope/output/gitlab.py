"""GitLab Code Quality: a JSON list of issues (as ruff's `gitlab` format)."""

from __future__ import annotations

import json
from typing import Sequence

from tfscope.output.findings import Finding, stable_fingerprints

SEVERITIES = {"error": "critical", "warning": "major", "info": "minor", "hint": "info"}


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    issues = [
        {
            "check_name": finding.code,
            "description": f"{finding.code}: {_cell(finding)}{finding.message}",
            "fingerprint": fingerprint,
            "severity": SEVERITIES[finding.severity],
            "location": {
                "path": finding.display_path,
                "positions": {
                    "begin": {"line": finding.location.row, "column": finding.location.column},
                    "end": {"line": finding.end_location.row, "column": finding.end_location.column},
                },
            },
        }
        for finding, fingerprint in zip(findings, stable_fingerprints(findings))
    ]
    return json.dumps(issues, indent=2, ensure_ascii=False) + "\n"


def _cell(finding: Finding) -> str:
    return f"cell {finding.cell}: " if finding.cell is not None else ""
