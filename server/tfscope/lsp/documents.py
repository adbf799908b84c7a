"""What gets analysed: a plain file, or a whole notebook (its code cells in order) as one Source."""

from __future__ import annotations

from urllib.parse import unquote
from typing import NamedTuple

from lsprotocol import types
from pygls import uris
from pygls.workspace import Workspace

from tfscope.lsp.convert import DocumentView
from tfscope.notebook import notebook_source
from tfscope.source import RecordedRun, Source

PYTHON_LANGUAGES = ("python", "")  # cells with no language id are taken as the notebook's Python


class Snapshot(NamedTuple):
    """The text of one analysis target at one moment; ``version`` changes with any edit to it."""

    key: str  # the text document uri, or the notebook uri for notebook cells
    version: object
    source: Source
    views: tuple[DocumentView, ...]  # the editor documents (the file, or each code cell)
    view_versions: dict[str, int | None]
    path: str | None

    @property
    def is_notebook(self) -> bool:
        return self.source.is_notebook

    def view(self, uri: str) -> DocumentView | None:
        return next((view for view in self.views if view.uri == uri), None)


def target_key(workspace: Workspace, uri: str) -> str:
    """The analysis target of a document: the notebook holding a cell, else the document itself."""
    notebook = workspace.get_notebook_document(cell_uri=uri)
    return notebook.uri if notebook is not None else uri


def has_text_document(workspace: Workspace, uri: str) -> bool:
    """pygls keys documents by unquoted uri (cell uris carry %-escapes)."""
    return unquote(uri) in workspace.text_documents


def current_version(workspace: Workspace, key: str) -> object | None:
    notebook = workspace.get_notebook_document(notebook_uri=key)
    if notebook is not None:
        return (notebook.version, tuple(_cell_versions(workspace, notebook)))
    if has_text_document(workspace, key):
        return workspace.get_text_document(key).version
    return None


def _cell_versions(workspace: Workspace, notebook: types.NotebookDocument):
    for cell in notebook.cells:
        if has_text_document(workspace, cell.document):
            yield cell.document, workspace.get_text_document(cell.document).version


def take_snapshot(workspace: Workspace, key: str, encoding: str,
                  recorded: RecordedRun = RecordedRun()) -> Snapshot | None:
    """Read the current text on the event loop (documents change only there); a notebook's with
    what its file ``recorded`` of its last run."""
    version = current_version(workspace, key)
    if version is None:
        return None
    path = uris.to_fs_path(key)
    notebook = workspace.get_notebook_document(notebook_uri=key)
    if notebook is None:
        document = workspace.get_text_document(key)
        source = Source(document.source, path=path)
        view = DocumentView(uri=key, source=source, encoding=encoding)
        return Snapshot(key, version, source, (view,), {key: document.version}, path)
    code_cells = []
    view_versions = {}
    for index, cell in enumerate(notebook.cells):
        if cell.kind != types.NotebookCellKind.Code or not has_text_document(workspace, cell.document):
            continue
        document = workspace.get_text_document(cell.document)
        if (document.language_id or "") not in PYTHON_LANGUAGES:
            continue
        code_cells.append((index, document.source, cell.document))
        view_versions[cell.document] = document.version
    source = notebook_source(code_cells, path=path)
    source.recorded = recorded
    views = tuple(DocumentView(uri=cell.uri, source=source, cell=cell, encoding=encoding) for cell in source.cells)
    return Snapshot(key, version, source, views, view_versions, path)
