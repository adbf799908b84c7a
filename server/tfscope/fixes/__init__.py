"""Fix primitives: fix intents to text edits, applying edits, validating them, and noqa.

The engine calls ``candidate_fixes`` (best first, unvalidated), applies each with
``apply_edits``, keeps it only if ``preserves_code`` holds and re-analysis agrees, and offers
the first that survives.
"""

import importlib

from tfscope.fixes.edits import apply_edits
from tfscope.fixes.noqa import (
    ALL,
    file_is_exempt,
    is_suppressed,
    noqa_directives,
    noqa_fix,
    noqa_suppressions,
    noqa_title,
)

# Modules only building and validating fixes use, imported when first asked: an analysis needs none.
_ON_DEMAND = {
    "candidate_fixes": "candidates",
    "MOVE_OUT_TITLE": "move",
    "move_into_title": "move",
    "wrap_title": "move",
    "parsed_if_preserved": "validate",
    "preserves_code": "validate",
}


def __getattr__(name: str):
    if name not in _ON_DEMAND:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{_ON_DEMAND[name]}"), name)


__all__ = [
    "ALL",
    "MOVE_OUT_TITLE",
    "apply_edits",
    "candidate_fixes",
    "file_is_exempt",
    "is_suppressed",
    "move_into_title",
    "noqa_directives",
    "noqa_fix",
    "noqa_suppressions",
    "noqa_title",
    "parsed_if_preserved",
    "preserves_code",
    "wrap_title",
]
