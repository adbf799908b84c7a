"""Editor end-to-end tests: skipped with a printed reason locally, never skipped in CI."""

from __future__ import annotations

import os

import pytest


def require(available: bool, reason: str) -> None:
    """Skip the calling test when a real editor part is missing, unless running in CI."""
    if available:
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI must run this editor test, but: {reason}")
    print(f"\nSKIPPED (editor test): {reason}")
    pytest.skip(reason)
