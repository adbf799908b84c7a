"""Every rule documents itself the ruff way, and docs/rules.md says what the code says."""

from __future__ import annotations

from pathlib import Path

import pytest

from tfscope.rules import all_rules
from tfscope.rules.docs import rules_reference

REQUIRED_SECTIONS = ("## What it does", "## Why is this bad?", "## Example")


@pytest.mark.parametrize("rule", all_rules(), ids=lambda rule: rule.code)
def test_rule_doc_has_the_sections_users_know_from_ruff(rule):
    for section in REQUIRED_SECTIONS:
        assert section in rule.doc, f"{rule.code} lacks {section}"
    assert ("## Use instead" in rule.doc) or ("## Fix safety" in rule.doc)
    if rule.fixable:
        assert "## Fix safety" in rule.doc, f"{rule.code} has a fix but does not say how safe it is"
    assert rule.name == rule.name.lower() and " " not in rule.name


def test_codes_are_unique_and_ordered():
    codes = [rule.code for rule in all_rules()]
    assert codes == sorted(set(codes)) and codes[0] == "TFS001"


def test_docs_rules_md_is_generated_from_the_rules():
    committed = (Path(__file__).parent.parent / "docs" / "rules.md").read_text()
    assert committed == rules_reference(), "regenerate: python -m tfscope.rules.docs > docs/rules.md"
