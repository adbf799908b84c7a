"""ruff-like human output: ``path:row:col: CODE [*] message``, with a code frame in ``text``."""

from __future__ import annotations

from typing import Sequence

from tfscope.diagnostics import Applicability
from tfscope.output.findings import Finding

FIXABLE_MARK = "[*] "
SEVERITY_ORDER = ("error", "warning", "info", "hint")


def is_fixable(finding: Finding, unsafe_fixes: bool) -> bool:
    """Whether ``--fix`` would apply this finding's fix."""
    if finding.fix is None:
        return False
    return Applicability(finding.fix.applicability).applies(unsafe_fixes)


def headline(finding: Finding, unsafe_fixes: bool) -> str:
    mark = FIXABLE_MARK if is_fixable(finding, unsafe_fixes) else ""
    return f"{finding.where}: {finding.code} [{finding.severity}] {mark}{finding.message}"


def concise(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return "".join(headline(finding, unsafe_fixes) + "\n" for finding in findings)


def full(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    return "".join(headline(finding, unsafe_fixes) + "\n" + _code_frame(finding) + "\n" for finding in findings)


def _code_frame(finding: Finding) -> str:
    """The flagged line with the range underlined, and the fix as help, like ruff."""
    row = str(finding.location.row)
    gutter = " " * len(row)
    line = finding.source_line.expandtabs(1)
    start = finding.location.column - 1
    end = finding.end_location.column - 1 if finding.end_location.row == finding.location.row else len(line)
    underline = " " * start + "^" * max(end - start, 1)
    frame = [f"{gutter} |", f"{row} | {line}", f"{gutter} | {underline} {finding.code}", f"{gutter} |"]
    if finding.fix is not None:
        frame.append(f"{gutter} = help: {finding.fix.message}")
    return "".join(part.rstrip() + "\n" for part in frame)


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def by_severity(findings: Sequence[Finding]) -> str:
    """``1 error, 2 warnings, 1 hint``: most severe first."""
    counts = {severity: sum(finding.severity == severity for finding in findings) for severity in SEVERITY_ORDER}
    return ", ".join(_plural(count, severity) for severity, count in counts.items() if count)


def summary(
    remaining: Sequence[Finding], fixed: int, unsafe_fixes: bool, fix_mode: bool, unchecked: int = 0, unparsed: int = 0
) -> str:
    """The closing lines: counts by severity, and how many more ``--fix`` (or ``--unsafe-fixes``) would fix."""
    problems = []
    if unparsed:
        problems.append(f"{_plural(unparsed, 'file')} could not be fully parsed")
    if unchecked:
        problems.append(f"{_plural(unchecked, 'file')} could not be checked")
    if not remaining and not fixed:
        if problems:
            return f"No findings in the files checked, but {' and '.join(problems)} (see above).\n"
        return "All checks passed!\n"
    total = len(remaining) + fixed
    severities = {finding.severity for finding in remaining}
    if fixed or fix_mode:
        remaining_text = f"{len(remaining)} remaining" + (f": {by_severity(remaining)}" if remaining else "")
        headline = f"Found {_plural(total, 'finding')} ({fixed} fixed, {remaining_text})."
    elif len(severities) == 1:
        headline = f"Found {by_severity(remaining)}."
    else:
        headline = f"Found {_plural(total, 'finding')} ({by_severity(remaining)})."
    lines = [headline]
    if problems:
        lines.append(f"{' and '.join(problems).capitalize()} (see above).")
    fixable = sum(is_fixable(finding, unsafe_fixes) for finding in remaining)
    hidden = sum(
        not unsafe_fixes and finding.fix is not None and finding.fix.applicability == "unsafe" for finding in remaining
    )
    if fixable and not fix_mode:
        lines.append(f"[*] {fixable} fixable with the `--fix` option.")
    if hidden:
        fixes = "fix" if hidden == 1 else "fixes"
        lines.append(f"({hidden} hidden {fixes} can be enabled with the `--unsafe-fixes` option.)")
    return "".join(line + "\n" for line in lines)


def statistics(findings: Sequence[Finding], unsafe_fixes: bool) -> str:
    """One row per rule: count, code, ``[*]`` when all are fixable, name — most frequent first."""
    by_code: dict[str, list[Finding]] = {}
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    rows = sorted(by_code.items(), key=lambda item: (-len(item[1]), item[0]))
    width = max((len(str(len(group))) for _, group in rows), default=1)
    return "".join(
        f"{len(group):>{width}}\t{code}\t"
        f"{FIXABLE_MARK if all(is_fixable(finding, unsafe_fixes) for finding in group) else '    '}{group[0].name}\n"
        for code, group in rows
    )
