"""ruff's JSON schema (a list of objects, keys sorted), plus ``severity``."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Sequence

from tfscope.output.findings import Finding, FindingFix


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return json.dumps([_record(finding) for finding in findings], indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _record(finding: Finding) -> dict:
    return {
        "cell": finding.cell,
        "code": finding.code,
        "end_location": asdict(finding.end_location),
        "filename": finding.filename,
        "fix": _fix(finding.fix),
        "location": asdict(finding.location),
        "message": finding.message,
        "noqa_row": finding.noqa_row,
        "severity": finding.severity,
        "url": finding.url,
    }


def _fix(fix: FindingFix | None) -> dict | None:
    if fix is None:
        return None
    return {
        "applicability": fix.applicability,
        "message": fix.message,
        "edits": [
            {"content": edit.content, "location": asdict(edit.location), "end_location": asdict(edit.end_location)}
            for edit in fix.edits
        ],
    }
