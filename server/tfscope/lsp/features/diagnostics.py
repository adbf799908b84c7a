"""Diagnostics to the editor: pushed (``publishDiagnostics``) or pulled (``textDocument/diagnostic``),
never both for a file; notebook cells are pushed, every code cell after any change, until the
client pulls them (then they are only pulled, with a refresh when another cell's edit changes them)."""

from __future__ import annotations

from lsprotocol import types

from tfscope.lsp.analysis import Result
from tfscope.lsp.documents import has_text_document
from tfscope.lsp.session import Session


def attach(session: Session) -> None:
    session.on_result.append(lambda result: delivered(session, result))
    session.on_close.append(lambda key, cell_uris: closed(session, key, cell_uris))


def delivered(session: Session, result: Result) -> None:
    if result.snapshot.is_notebook or not session.client.pulls_diagnostics:
        publish(session, result)
    if result.snapshot.is_notebook and session.pulled_cells.needs_refresh(result, lambda uri: editor_version(session, uri)):
        session.client.refresh_diagnostics()


def publish(session: Session, result: Result) -> None:
    snapshot = result.snapshot
    pushed = [view for view in snapshot.views if not session.pulled_cells.is_pulled(snapshot.key, view.uri)]
    for view in pushed:
        session.client.publish(view.uri, snapshot.view_versions.get(view.uri), result.diagnostics[view.uri])
    if snapshot.is_notebook:
        current = {view.uri for view in snapshot.views}
        for removed in session.published_cells.get(snapshot.key, set()) - current:
            session.client.publish(removed, None, [])
        session.pulled_cells.keep_only(snapshot.key, current)
        session.published_cells[snapshot.key] = {view.uri for view in pushed}


def stop_pushing(session: Session, key: str, cell_uri: str) -> None:
    """The client pulls this cell: clear what was pushed for it, or it would show twice."""
    published = session.published_cells.get(key, set())
    if cell_uri in published:
        published.discard(cell_uri)
        session.client.publish(cell_uri, None, [])


def editor_version(session: Session, uri: str) -> int | None:
    return session.workspace.get_text_document(uri).version if has_text_document(session.workspace, uri) else None


def closed(session: Session, key: str, cell_uris: list[str]) -> None:
    """A closed document (or notebook) keeps no squiggles; pulled cells were never pushed."""
    published = session.published_cells.pop(key, set())
    pulled = session.pulled_cells.pulled(key)
    session.pulled_cells.forget(key)
    if cell_uris or published:
        for uri in published | (set(cell_uris) - pulled):
            session.client.publish(uri, None, [])
    elif not session.client.pulls_diagnostics:
        session.client.publish(key, None, [])


async def pull(session: Session, params: types.DocumentDiagnosticParams) -> types.DocumentDiagnosticReport:
    uri = params.text_document.uri
    key = session.target_of(uri)
    result = await session.current_result(key)
    if result is None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    if key != uri:  # a notebook cell: answered from the whole notebook's analysis
        stop_pushing(session, key, uri)
        return session.pulled_cells.report(key, uri, result, editor_version(session, uri), params.previous_result_id)
    if params.previous_result_id == result.id:
        return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result.id)
    return types.RelatedFullDocumentDiagnosticReport(items=result.diagnostics.get(uri, []), result_id=result.id)
