"""Inlay hints: the strategy that owns each named model, optimizer, metric, variable and
checkpoint, after the expression that creates it. They come from the analysis the diagnostics
came from (``engine.Analysis.owner_hints``), for the same document version; the tooltip, the
hover's explanation, is filled in by ``inlayHint/resolve``."""

from __future__ import annotations

from typing import Callable, Mapping

from lsprotocol import types

from tfscope.lsp.analysis import Result
from tfscope.lsp.documents import current_version
from tfscope.lsp.session import Session
from tfscope.lsp.settings import ServerOptions


def attach(session: Session) -> None:
    """Ask the client anew when a result changes what it was shown without an edit (settings,
    jedi's answer for the same text, a save with `run: onSave`): it asks on edits by itself."""
    shown: dict[str, Result] = {}  # the result before, whose glance is worked out only to compare

    def delivered(result: Result) -> None:
        key = result.snapshot.key
        before, shown[key] = shown.get(key), result
        if before is None or (before.snapshot.version != result.snapshot.version and not session.runs_on_save(key)):
            return  # an edit: the client asks by itself
        if _glance_of(before) != _glance_of(result):
            session.client.refresh_glance()

    session.on_result.append(delivered)
    session.on_close.append(lambda key, cell_uris: shown.pop(key, None))


def options_for_editor(session: Session, result: Result | None) -> ServerOptions | None:
    """The settings of a result whose positions fit the editor's text (with `run: onSave` and
    unsaved edits the result is of the saved text: nothing to show)."""
    if result is None or result.effective is None:
        return None
    if result.snapshot.version != current_version(session.workspace, result.snapshot.key):
        return None
    return result.effective.resolved.options


async def shown_view(session: Session, uri: str, switched_on: Callable[[ServerOptions], bool]):
    """(result, the document's view) when the hints or lenses ``switched_on`` names are to be shown
    for ``uri``; None when they are off, stale, or nothing was analysed there (a markdown cell)."""
    result = await session.current_result(session.target_of(uri))
    options = options_for_editor(session, result)
    if options is None or not switched_on(options):
        return None
    view = result.snapshot.view(uri)
    return (result, view) if view is not None else None


def _glance_of(result: Result) -> tuple:
    """What the hints and lenses show for a result: the settings that switch them, and their facts."""
    options = result.effective.resolved.options if result.effective else None
    switches = (options.inlay_hints, options.code_lens) if options else (False, False)
    return (*switches, tuple(result.owner_hints), tuple(result.scope_summaries))


async def inlay_hints(session: Session, params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    shown = await shown_view(session, uri, lambda options: options.inlay_hints)
    if shown is None:
        return []
    result, view = shown
    first, last = view.offset(params.range.start), view.offset(params.range.end)
    return [
        types.InlayHint(
            position=view.position(hint.offset),
            label=hint.label,
            kind=types.InlayHintKind.Type,
            padding_left=True,
            data={"uri": uri, "result": result.id, "index": index},
        )
        for index, hint in enumerate(result.owner_hints)
        if view.start <= hint.offset <= view.end and first <= hint.offset <= last
    ]


def resolve(session: Session, hint: types.InlayHint) -> types.InlayHint:
    """The explanation of a hint from a result still current; a stale hint stays as it is."""
    data = hint.data if isinstance(hint.data, Mapping) else {}
    uri, index, result_id = data.get("uri"), data.get("index"), data.get("result")
    if not (isinstance(uri, str) and isinstance(index, int) and isinstance(result_id, str)):
        return hint
    result = session.result_by_id(session.target_of(uri), result_id)
    if result is not None and 0 <= index < len(result.owner_hints):
        hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=result.owner_hints[index].explanation)
    return hint
