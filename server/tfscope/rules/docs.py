"""Rule documentation as text: `tfscope rule`, hovers and docs/rules.md share it.

Regenerate the reference with ``python -m tfscope.rules.docs > docs/rules.md``.
"""

from __future__ import annotations

from tfscope.rules import Rule, all_rules


def rule_text(rule: Rule) -> str:
    enabled = "Enabled by default." if rule.default_enabled else "Not enabled by default: turn it on with `extend-select`."
    fix = " Has a fix." if rule.fixable else ""
    return f"# {rule.name} ({rule.code})\n\nDefault severity: {rule.severity.value}. {enabled}{fix}\n\n{rule.doc.strip()}\n"


def rules_reference() -> str:
    rows = "\n".join(
        f"| [{rule.code}](#{rule.code.lower()}) | {rule.name} | {rule.severity.value}"
        f"{'' if rule.default_enabled else ' (off by default)'} | {'yes' if rule.fixable else ''} | {rule.summary} |"
        for rule in all_rules()
    )
    sections = "\n".join(
        f'<a id="{rule.code.lower()}"></a>\n\n' + rule_text(rule).replace("\n#", "\n##").replace("# ", "## ", 1)
        for rule in all_rules()
    )
    return (
        "# tfscope rules\n\n"
        "Generated from the rule modules (`python -m tfscope.rules.docs > docs/rules.md`); "
        "`tfscope rule CODE` prints the same text.\n\n"
        "| code | name | default severity | fix | what it catches |\n|---|---|---|---|---|\n"
        f"{rows}\n\n{sections}"
    )


if __name__ == "__main__":
    print(rules_reference(), end="")
