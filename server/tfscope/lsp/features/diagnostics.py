"""Diagnostics to the editor: pushed (``publishDiagnostics``) or pulled (``textDocument/diagnostic``),
never both for a file; notebook cells are always pushed, every code cell after any change."""

from __future__ import annotations

from lsprotocol import types

from tfscope.lsp.analysis import Result
from tfscope.lsp.session import Session


def attach(session: Session) -> None:
    session.on_result.append(lambda result: delivered(session, result))
    session.on_close.append(lambda key, cell_uris: closed(session, key, cell_uris))


def delivered(session: Session, result: Result) -> None:
    if result.snapshot.is_notebook or not session.client.pulls_diagnostics:
        publish(session, result)


def publish(session: Session, result: Result) -> None:
    snapshot = result.snapshot
    for view in snapshot.views:
        session.client.publish(view.uri, snapshot.view_versions.get(view.uri), result.diagnostics[view.uri])
    if snapshot.is_notebook:
        current = {view.uri for view in snapshot.views}
        for removed in session.published_cells.get(snapshot.key, set()) - current:
            session.client.publish(removed, None, [])
        session.published_cells[snapshot.key] = current


def closed(session: Session, key: str, cell_uris: list[str]) -> None:
    """A closed document (or notebook) keeps no squiggles."""
    published = session.published_cells.pop(key, set())
    if cell_uris or published:
        for uri in published | set(cell_uris):
            session.client.publish(uri, None, [])
    elif not session.client.pulls_diagnostics:
        session.client.publish(key, None, [])


async def pull(session: Session, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    key = session.target_of(uri)
    if key != uri:  # notebook cells are always pushed: the whole notebook changes together
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    result = await session.current_result(key)
    if result is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if params.previous_result_id == result.id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.id)
    return types.RelatedFullDocumentDiagnosticReport(items=result.diagnostics.get(uri, []), result_id=result.id)
