"""Fix primitives: fix intents to text edits, applying edits, validating them, and noqa.

The engine calls ``candidate_fixes`` (best first, unvalidated), applies each with
``apply_edits``, keeps it only if ``preserves_code`` holds and re-analysis agrees, and offers
the first that survives.
"""

from tfscope.fixes.candidates import candidate_fixes
from tfscope.fixes.edits import apply_edits
from tfscope.fixes.move import MOVE_OUT_TITLE, move_into_title, wrap_title
from tfscope.fixes.noqa import (
    ALL,
    file_is_exempt,
    is_suppressed,
    noqa_directives,
    noqa_fix,
    noqa_suppressions,
    noqa_title,
)
from tfscope.fixes.validate import parsed_if_preserved, preserves_code

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
