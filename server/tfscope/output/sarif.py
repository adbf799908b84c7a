"""SARIF 2.1.0 for code scanning: every rule with its docs, every finding as a result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from tfscope import __version__
from tfscope.output.findings import Finding
from tfscope.rules import Rule, all_rules

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
INFORMATION_URI = "https://github.com/tfscope/tfscope"
RESULT_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    rules = list(all_rules())
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    run = {
        "tool": {
            "driver": {
                "name": "tfscope",
                "version": __version__,
                "informationUri": INFORMATION_URI,
                "rules": [_rule(rule) for rule in rules],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": [_result(finding, rule_index) for finding in findings],
    }
    document = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _rule(rule: Rule) -> dict:
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": rule.doc.strip(), "markdown": rule.doc.strip()},
        "defaultConfiguration": {"level": RESULT_LEVELS[rule.severity.value], "enabled": rule.default_enabled},
    }


def _result(finding: Finding, rule_index: dict[str, int]) -> dict:
    cell = f"cell {finding.cell}: " if finding.cell is not None else ""
    result = {
        "ruleId": finding.code,
        "level": RESULT_LEVELS[finding.severity],
        "message": {"text": f"{cell}{finding.message}"},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": {"uri": _uri(finding.display_path)},
                    "region": {
                        "startLine": finding.location.row,
                        "startColumn": finding.location.column,
                        "endLine": finding.end_location.row,
                        "endColumn": finding.end_location.column,
                    },
                }
            }
        ],
    }
    if finding.code in rule_index:
        result["ruleIndex"] = rule_index[finding.code]
    return result


def _uri(display_path: str) -> str:
    """Relative paths stay relative (code scanning resolves them against the checkout)."""
    path = Path(display_path)
    return path.as_uri() if path.is_absolute() else quote(path.as_posix())
