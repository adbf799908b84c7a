"""``workspace/executeCommand``: ``tfscope.applyFixAll`` (every safe fix of a file, or of a whole
notebook, through ``workspace/applyEdit``)."""

from __future__ import annotations

from tfscope.lsp.features.actions import FIX_ALL_TITLE, fix_all_edits, workspace_edit
from tfscope.lsp.session import Session


async def apply_fix_all(session: Session, uri: str) -> None:
    result = await session.full_result(session.target_of(uri))
    if result is None or result.analysis is None:
        return
    edits = await session.analyzer.run(fix_all_edits, result.analysis, list(result.snapshot.views))
    edit = workspace_edit(session, result, edits)
    if edit is not None:
        await session.client.apply_edit(edit, FIX_ALL_TITLE)
