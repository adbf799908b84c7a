"""JUnit XML: one test suite per file, one failed test case per finding (as ruff's `junit`)."""

from __future__ import annotations

from itertools import groupby
from typing import Sequence
from xml.etree import ElementTree

from tfscope.output.findings import Finding


def render(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    root = ElementTree.Element("testsuites", name="tfscope", tests=str(len(findings) or 1), failures=str(len(findings)), errors="0")
    if not findings:
        suite = ElementTree.SubElement(root, "testsuite", name="tfscope", tests="1", failures="0", errors="0")
        ElementTree.SubElement(suite, "testcase", name="No findings")
    for path, group in groupby(findings, key=lambda finding: finding.display_path):
        group = list(group)
        suite = ElementTree.SubElement(root, "testsuite", name=path, tests=str(len(group)), failures=str(len(group)), errors="0")
        for finding in group:
            case = ElementTree.SubElement(
                suite, "testcase", name=f"org.tfscope.{finding.code}", classname=path, line=str(finding.location.row),
                column=str(finding.location.column),
            )
            cell = f"cell {finding.cell}, " if finding.cell is not None else ""
            failure = ElementTree.SubElement(case, "failure", message=finding.message, type=finding.severity)
            failure.text = f"{cell}line {finding.location.row}, col {finding.location.column}, {finding.message}"
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"
