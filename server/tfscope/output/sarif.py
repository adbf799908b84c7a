"""SARIF 2.1.0 for code scanning: every rule with its docs, every finding as a result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Sequence
from urllib.parse import quote

from tfscope import __version__
from tfscope.output.findings import Finding, stable_fingerprints
from tfscope.rules import Rule, all_rules

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
FINGERPRINT = "tfscope/v1"  # partialFingerprints key: bump the version if the recipe changes
RESULT_LEVELS = {"error": "error", "warning": "warning", "info": "note", "hint": "note"}


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    rules = list(all_rules())
    rule_index = {rule.code: index for index, rule in enumerate(rules)}
    urls = {finding.code: finding.url for finding in findings if finding.url}  # from `docs-url`
    run = {
        "tool": {
            "driver": {
                "name": "tfscope",
                "version": __version__,
                "rules": [_rule(rule, urls.get(rule.code)) for rule in rules],
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": _results(findings, rule_index),
    }
    document = {"$schema": SARIF_SCHEMA, "version": SARIF_VERSION, "runs": [run]}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _rule(rule: Rule, help_uri: str | None) -> dict:
    described = {"helpUri": help_uri} if help_uri else {}
    return {
        **described,
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.summary},
        "help": {"text": rule.doc.strip(), "markdown": rule.doc.strip()},
        "defaultConfiguration": {"level": RESULT_LEVELS[rule.severity.value], "enabled": rule.default_enabled},
    }


def _results(findings: Sequence[Finding], rule_index: dict[str, int]) -> list[dict]:
    results = []
    for finding, digest in zip(findings, stable_fingerprints(findings)):
        result = _result(finding, rule_index)
        result["partialFingerprints"] = {FINGERPRINT: digest}
        results.append(result)
    return results


def _fix(finding: Finding) -> dict | None:
    """A SARIF fix, for .py files only: notebook rows count within a cell, not in the file."""
    if finding.fix is None or finding.cell is not None or not finding.fix.edits:
        return None
    replacements = [
        {
            "deletedRegion": {
                "startLine": edit.location.row,
                "startColumn": edit.location.column,
                "endLine": edit.end_location.row,
                "endColumn": edit.end_location.column,
            },
            "insertedContent": {"text": edit.content},
        }
        for edit in finding.fix.edits
    ]
    return {
        "description": {"text": f"{finding.fix.message} ({finding.fix.applicability})"},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(finding.display_path)}, "replacements": replacements}],
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
    fix = _fix(finding)
    if fix is not None:
        result["fixes"] = [fix]
    return result


def _uri(display_path: str) -> str:
    """Relative paths stay relative (code scanning resolves them against the checkout)."""
    path = Path(display_path)
    return path.as_uri() if path.is_absolute() else quote(path.as_posix())
