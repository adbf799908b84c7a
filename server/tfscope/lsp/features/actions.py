"""Code actions: the engine's quick fixes, "Ignore TFSxxx on this line", and fix-all (safe only).

Titles are listed right away; edits are computed in ``codeAction/resolve`` when the client
supports it. Every edit names the document version it was computed for. Fix-all repeats
passes of safe fixes until none applies (like ``tfscope check --fix``); the ``tfscope.applyFixAll``
command (``features.commands``) applies the same edits.
"""

from __future__ import annotations

import os

from lsprotocol import types

from tfscope import engine
from tfscope.diagnostics import Applicability, Edit
from tfscope.lsp.analysis import Result
from tfscope.lsp.convert import DocumentView, to_text_edits
from tfscope.lsp.names import FIX_ALL, NOTEBOOK_FIX_ALL, QUICK_FIX
from tfscope.lsp.session import Session
from tfscope.source import Source

FIX_ALL_TITLE = "Fix all safe tfscope issues"

# what a lazily resolved action computes, recorded in its ``data["fix"]``
NOQA = "noqa"
ALL_IN_DOCUMENT = "all"
ALL_IN_NOTEBOOK = "notebook"


def wanted(kind: str, only) -> bool:
    return only is None or any(kind == requested or kind.startswith(requested + ".") for requested in only)


async def code_actions(session: Session, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    key = session.target_of(uri)
    result = await session.full_result(key)
    if result is None or result.analysis is None or (view := result.snapshot.view(uri)) is None:
        return None
    # whole lines: editors without a diagnostic under the cursor still ask for "this line"
    source = view.source
    first_line, last_line = (source.line_of(view.offset(position)) for position in (params.range.start, params.range.end))
    only = params.context.only
    found: list[types.CodeAction] = []
    if wanted(QUICK_FIX, only):
        for index, diagnostic in enumerate(result.analysis.diagnostics):
            in_view = view.start <= diagnostic.start <= view.end
            if in_view and source.line_of(diagnostic.start) <= last_line and first_line <= source.line_of(diagnostic.end):
                found += await _quick_fixes(session, result, key, uri, index)
    fixable_here = any(diagnostic.intent is not None for diagnostic in result.analysis.diagnostics)
    if fixable_here and wanted(FIX_ALL, only):
        found.append(_action(FIX_ALL_TITLE, FIX_ALL, result, key, uri, {"fix": ALL_IN_DOCUMENT}))
    if fixable_here and view.cell is not None and only is not None and wanted(NOTEBOOK_FIX_ALL, only):
        found.append(_action(FIX_ALL_TITLE, NOTEBOOK_FIX_ALL, result, key, uri, {"fix": ALL_IN_NOTEBOOK}))
    if not session.client.resolves_code_actions:
        found = [await resolve(session, action) for action in found]
    return found


async def _quick_fixes(session: Session, result: Result, key: str, uri: str, index: int) -> list[types.CodeAction]:
    diagnostic = result.analysis.diagnostics[index]
    lsp_diagnostic = [item for item in result.diagnostics[uri] if item.data["index"] == index]
    found = [
        _action(fix.title, QUICK_FIX, result, key, uri, {"fix": number, "index": index}, lsp_diagnostic, fix.is_preferred)
        for number, fix in enumerate(await session.analyzer.fixes(result, index))
        if fix.applicability != Applicability.DISPLAY_ONLY
    ]
    if await session.analyzer.run(engine.noqa_fix, result.analysis, diagnostic) is not None:
        found.append(
            _action(f"Ignore {diagnostic.code} on this line", QUICK_FIX, result, key, uri,
                    {"fix": NOQA, "index": index}, lsp_diagnostic)
        )
    return found


def _action(title, kind, result: Result, key, uri, data, diagnostics=None, preferred=False) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=kind,
        diagnostics=diagnostics or None,
        is_preferred=preferred or None,
        data={"result": result.id, "key": key, "uri": uri, **data},
    )


async def resolve(session: Session, action: types.CodeAction) -> types.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    result = session.result_by_id(data.get("key"), data.get("result"))
    if result is None:
        return action  # the document changed since: no edit rather than one for other text
    if (await session.restore(result)).analysis is None:
        return action
    edit = await _edit_for(session, result, data)
    if edit is not None:
        action.edit = edit
    return action


async def _edit_for(session: Session, result: Result, data: dict) -> types.WorkspaceEdit | None:
    kind = data.get("fix")
    views = result.snapshot.views
    if kind in (ALL_IN_DOCUMENT, ALL_IN_NOTEBOOK):
        scope = views if kind == ALL_IN_NOTEBOOK else [view for view in views if view.uri == data.get("uri")]
        edits = await session.analyzer.run(fix_all_edits, result.analysis, scope)
        return workspace_edit(session, result, edits)
    index = data.get("index")
    if not isinstance(index, int) or not 0 <= index < len(result.analysis.diagnostics):
        return None
    if kind == NOQA:
        diagnostic = result.analysis.diagnostics[index]
        fix = await session.analyzer.run(engine.noqa_fix, result.analysis, diagnostic)
        return workspace_edit(session, result, list(fix.edits)) if fix is not None else None
    fixes = await session.analyzer.fixes(result, index)
    if isinstance(kind, int) and 0 <= kind < len(fixes):
        return workspace_edit(session, result, list(fixes[kind].edits))
    return None


def fix_all_edits(analysis: engine.Analysis, scope: list[DocumentView]) -> list[Edit]:
    """Safe fixes applied until none is left (runs in the analysis thread), as one minimal
    replacement per document in ``scope`` against the analysed text."""
    uris_in_scope = {view.uri for view in scope}
    current, _ = engine.fix_until_stable(
        analysis, accept=lambda at, fix: all(_inside(at.source, edit, uris_in_scope) for edit in fix.edits)
    )
    return [edit for view in scope if (edit := _replacement(view, current.source)) is not None]


def _inside(source: Source, edit: Edit, uris_in_scope: set[str]) -> bool:
    if not source.is_notebook:
        return True
    cell = source.cell_at(edit.start)
    return cell is not None and cell.uri in uris_in_scope and edit.end <= cell.end


def _replacement(view: DocumentView, fixed: Source) -> Edit | None:
    """The smallest single edit turning the view's text into its text in ``fixed``."""
    if view.cell is None:
        new_text = fixed.text
    else:
        cell = next((cell for cell in fixed.cells if cell.uri == view.uri), None)
        if cell is None:
            return None
        new_text = fixed.text[cell.start : cell.end]
    old_text = view.source.text[view.start : view.end]
    if old_text == new_text:
        return None
    prefix = len(os.path.commonprefix([old_text, new_text]))
    limit = min(len(old_text), len(new_text)) - prefix
    suffix = len(os.path.commonprefix([old_text[::-1], new_text[::-1]]))
    suffix = min(suffix, limit)
    return Edit(view.start + prefix, view.start + len(old_text) - suffix, new_text[prefix : len(new_text) - suffix])


def _owner(views, edit: Edit) -> DocumentView | None:
    return next((view for view in views if view.start <= edit.start and edit.end <= view.end), None)


def workspace_edit(session: Session, result: Result, edits: list[Edit]) -> types.WorkspaceEdit | None:
    """Edits grouped per document (a notebook fix may touch two cells); None if one crosses cells."""
    per_view: dict[str, tuple[DocumentView, list[Edit]]] = {}
    for edit in edits:
        view = _owner(result.snapshot.views, edit)
        if view is None:
            return None
        per_view.setdefault(view.uri, (view, []))[1].append(edit)
    if not per_view:
        return None
    if session.client.supports("workspace.workspace_edit.document_changes"):
        versions = result.snapshot.view_versions
        return types.WorkspaceEdit(
            document_changes=[
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions.get(uri)),
                    edits=to_text_edits(view, view_edits),
                )
                for uri, (view, view_edits) in per_view.items()
            ]
        )
    return types.WorkspaceEdit(changes={uri: to_text_edits(view, view_edits) for uri, (view, view_edits) in per_view.items()})
