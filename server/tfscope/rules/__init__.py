"""The rule registry: one module per rule, each defining ``RULE``."""

from __future__ import annotations

import ast
import importlib
import threading
from dataclasses import dataclass
from typing import Callable, Iterable, NamedTuple

from tfscope.diagnostics import FixIntent, Severity

_RULE_MODULES = (
    "tfs001_model_outside_scope",
    "tfs002_optimizer_outside_scope",
    "tfs003_metric_outside_scope",
    "tfs004_variable_outside_scope",
    "tfs005_checkpoint_outside_scope",
    "tfs006_restore_outside_scope",
    "tfs007_compile_outside_scope",
    "tfs008_mixed_strategies",
    "tfs009_unnecessary_in_scope",
    "tfs010_fit_in_scope",
    "tfs011_strategy_recreated",
    "tfs012_step_outside_run",
    "tfs013_loss_reduction",
    "tfs014_strategy_not_first",
    "tfs015_lazy_build_outside_scope",
    "tfs100_unused_noqa",
)


@dataclass(frozen=True, kw_only=True)
class Violation:
    node: ast.AST  # what the squiggle covers
    message: str
    related: tuple[tuple[ast.AST, str], ...] = ()
    explanation: str = ""
    intent: FixIntent | None = None


class Rule(NamedTuple):
    code: str
    name: str
    severity: Severity
    summary: str  # one line, for SARIF and listings
    doc: str  # ruff-style: What it does / Why is this bad? / Example / Use instead / Fix safety
    check: Callable[..., Iterable[Violation]]  # (SemanticModel) -> violations
    default_enabled: bool = True
    unnecessary: bool = False
    fixable: bool = False


_RULES: dict[str, Rule] = {}


def all_rules() -> list[Rule]:
    _load()
    return list(_RULES.values())


def get_rule(code: str) -> Rule | None:
    _load()
    return _RULES.get(code.upper())


_LOADING = threading.Lock()


def _load() -> None:
    if len(_RULES) == len(_RULE_MODULES):
        return
    with _LOADING:  # the server's analysis threads may all ask first
        for module_name in _RULE_MODULES:
            rule = importlib.import_module(f"tfscope.rules.{module_name}").RULE
            _RULES.setdefault(rule.code, rule)
