"""The rule registry: every rule module listed once, in code order."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from tfscope.diagnostics import Severity


@dataclass(frozen=True)
class Rule:
    code: str
    name: str
    severity: Severity
    doc: str  # ruff-style: What it does / Why is this bad? / Example / Use instead / Fix safety
    check: Callable  # (SemanticModel, RuleContext) -> Iterable[Violation]
    default_enabled: bool = True
    unnecessary: bool = False


RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    RULES[rule.code] = rule
    return rule


def all_rules() -> Iterable[Rule]:
    _load()
    return [RULES[code] for code in sorted(RULES)]


def get_rule(code: str) -> Rule | None:
    _load()
    return RULES.get(code.upper())


def _load() -> None:
    if not RULES:
        from tfscope.rules import catalog  # noqa: F401  (registers every rule)
