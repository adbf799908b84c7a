"""Code lenses over ``with ….scope():`` blocks: "creates 3 distributed objects · 1 created outside
is used here", from the analysis the diagnostics came from (``engine.Analysis.scope_summaries``).
Their command is the client's: it lists the objects (VS Code's references peek, Neovim's
location list) from the locations it is given."""

from __future__ import annotations

from lsprotocol import types

from tfscope.lsp.features.inlay_hints import shown_view
from tfscope.lsp.names import SHOW_OBJECTS_COMMAND
from tfscope.lsp.session import Session


async def code_lenses(session: Session, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    shown = await shown_view(session, uri, lambda options: options.code_lens)
    if shown is None:
        return []
    result, view = shown
    lenses = []
    for summary in result.scope_summaries:
        if not view.start <= summary.start <= view.end:
            continue
        locations = [_location(result.snapshot.views, start, end) for start, end in
                     (*summary.created, *summary.used_from_outside)]
        position = view.position(summary.start)
        lenses.append(types.CodeLens(
            range=view.range(summary.start, min(summary.end, view.end)),
            command=types.Command(
                title=summary.title,
                command=SHOW_OBJECTS_COMMAND,
                arguments=[uri, {"line": position.line, "character": position.character},
                           [location for location in locations if location is not None]],
            ),
        ))
    return lenses


def _location(views, start: int, end: int) -> dict | None:
    """A plain-JSON location (command arguments are not converted), in the cell holding it."""
    view = next((view for view in views if view.start <= start <= view.end), None)
    if view is None:
        return None
    span = view.range(start, min(end, view.end))
    return {
        "uri": view.uri,
        "range": {
            "start": {"line": span.start.line, "character": span.start.character},
            "end": {"line": span.end.line, "character": span.end.character},
        },
    }
