"""CI's share of the fuzzing: a few hundred seeded inputs (see harness.py); the contract holds on each."""

from __future__ import annotations

import pytest

from .harness import Case, check, run

SEEDS = [8, 2026]
INPUTS_PER_SEED = 200


@pytest.mark.parametrize("seed", SEEDS)
def test_the_engine_contract_holds_on_seeded_hostile_inputs(seed):
    report = run([seed], INPUTS_PER_SEED)
    print(report.summary())
    assert not report.failures, "\n".join(report.failures[:20])


def test_the_harness_catches_a_broken_contract(monkeypatch):
    """A harness that cannot fail proves nothing: an engine that drops findings is caught."""
    case = Case("dropped findings", "x = 1\n", expected=[("TFS001", 0)])
    problems, _ = check(case)
    assert problems and "changed the file's findings" in problems[0]
