"""Inlay hints: the strategy that owns each named model, optimizer, metric, variable and
checkpoint, after the expression that creates it. They come from the analysis the diagnostics
came from (``engine.Analysis.owner_hints``), for the same document version; the tooltip, the
hover's explanation, is filled in by ``inlayHint/resolve``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Mapping

from lsprotocol import types

from tfscope.lsp.documents import target_key

if TYPE_CHECKING:
    from tfscope.lsp.server import TfscopeServer


async def inlay_hints(ls: TfscopeServer, params: types.InlayHintParams) -> list[types.InlayHint]:
    uri = params.text_document.uri
    result = await ls.current_result(target_key(ls.workspace, uri))
    if result is None or result.resolved is None or not result.resolved.options.inlay_hints:
        return []
    view = result.snapshot.view(uri)
    if view is None:  # a markdown cell, or a cell in another language: nothing analysed there
        return []
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


def resolve(ls: TfscopeServer, hint: types.InlayHint) -> types.InlayHint:
    """The explanation of a hint from a result still current; a stale hint stays as it is."""
    data = hint.data if isinstance(hint.data, Mapping) else {}
    uri, index = data.get("uri"), data.get("index")
    result = ls.results.get(target_key(ls.workspace, uri)) if isinstance(uri, str) else None
    if result is None or result.id != data.get("result") or not isinstance(index, int):
        return hint
    if 0 <= index < len(result.owner_hints):
        hint.tooltip = types.MarkupContent(kind=types.MarkupKind.Markdown, value=result.owner_hints[index].explanation)
    return hint
