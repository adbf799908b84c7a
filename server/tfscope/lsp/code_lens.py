"""Code lenses over ``with ….scope():`` blocks: "creates 3 distributed objects · 1 created outside
is used here", from the analysis the diagnostics came from (``engine.Analysis.scope_summaries``).
Their command is the client's: it lists the objects (VS Code's references peek, Neovim's
location list) from the locations it is given."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types

from tfscope.lsp.documents import target_key

if TYPE_CHECKING:
    from tfscope.lsp.server import TfscopeServer

SHOW_OBJECTS_COMMAND = "tfscope.showObjects"  # arguments: uri, position, [location, ...]


async def code_lenses(ls: TfscopeServer, params: types.CodeLensParams) -> list[types.CodeLens]:
    uri = params.text_document.uri
    result = await ls.current_result(target_key(ls.workspace, uri))
    if result is None or result.resolved is None or not result.resolved.options.code_lens:
        return []
    view = result.snapshot.view(uri)
    if view is None:
        return []
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
