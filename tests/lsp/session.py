"""Drive the real tfscope language server over stdio with recorded editor capabilities (test helpers)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from lsprotocol import types
from pygls import uris
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

SERVER_COMMAND = [sys.executable, "-m", "tfscope.lsp"]
WAIT_SECONDS = 20.0  # a ceiling for slow shared machines, never an assertion on speed

# The scenario of rule TFS001: the model is built outside the scope, then compiled inside it.
MODEL_OUTSIDE_SCOPE = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    """
)
MODEL_LINE = 3  # 0-based line of the flagged creation

MODEL_INSIDE_SCOPE = textwrap.dedent(
    """\
    import tensorflow as tf

    strategy = tf.distribute.MirroredStrategy()
    with strategy.scope():
        model = tf.keras.Sequential([tf.keras.layers.Dense(10)])
        model.compile(optimizer="adam", loss="mse")
    """
)


def vscode(pull: bool = True) -> types.ClientCapabilities:
    """VS Code's recorded capabilities plus what today's client adds: notebooks, pull diagnostics."""
    capabilities = copy.deepcopy(client_capabilities("visual-studio-code"))
    capabilities.notebook_document = types.NotebookDocumentClientCapabilities(
        synchronization=types.NotebookDocumentSyncClientCapabilities(dynamic_registration=True)
    )
    if pull:
        capabilities.text_document.diagnostic = types.DiagnosticClientCapabilities(dynamic_registration=True)
        capabilities.workspace.diagnostics = types.DiagnosticWorkspaceClientCapabilities(refresh_support=True)
    return capabilities


def neovim(version: str = "latest") -> types.ClientCapabilities:
    return copy.deepcopy(client_capabilities(f"neovim@{version}"))


EDITORS: dict[str, Callable[[], types.ClientCapabilities]] = {
    "vscode": vscode,  # pull diagnostics, notebooks, resolve, versioned edits, watched files
    "neovim": neovim,  # 0.11: pull but no refresh (so push), UTF-8 positions, unversioned edits, no watching
    "neovim-0.7": lambda: neovim("v0.7.0"),  # Debian's: push diagnostics, no workspace/configuration
}


@dataclass
class Session:
    client: LanguageClient
    encoding: str
    pulls: bool  # the server advertised textDocument/diagnostic: it must not push (except cells)
    texts: dict[str, str] = field(default_factory=dict)
    versions: dict[str, int] = field(default_factory=dict)
    notebook_of: dict[str, str] = field(default_factory=dict)  # cell uri -> notebook uri
    cells: dict[str, list[types.NotebookCell]] = field(default_factory=dict)  # per notebook, in order

    # -- documents --------------------------------------------------------------------------

    def open(self, path: Path, text: str) -> str:
        path.write_text(text, encoding="utf-8")
        uri = uris.from_fs_path(str(path))
        self.texts[uri], self.versions[uri] = text, 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
            )
        )
        return uri

    def open_notebook(self, path: Path, cells: list[tuple[str, str]], notebook_type="jupyter-notebook") -> list[str]:
        """Open a notebook of (kind "code"|"markdown", text) cells; return the cell uris."""
        notebook_uri = uris.from_fs_path(str(path))
        self.versions[notebook_uri] = 1
        items = [self._cell_item(path, number, kind, text) for number, (kind, text) in enumerate(cells)]
        self.cells[notebook_uri] = [cell for cell, _ in items]
        self.client.notebook_document_did_open(
            types.DidOpenNotebookDocumentParams(
                notebook_document=types.NotebookDocument(
                    uri=notebook_uri, notebook_type=notebook_type, version=1, cells=self.cells[notebook_uri]
                ),
                cell_text_documents=[item for _, item in items],
            )
        )
        return [cell.document for cell in self.cells[notebook_uri]]

    def _cell_item(self, path: Path, number: int, kind: str, text: str):
        # VS Code's cell uris: the notebook path plus an escaped fragment naming the cell
        uri = f"vscode-notebook-cell:{path.as_posix()}#W{number}sZmlsZQ%3D%3D"
        language = "python" if kind == "code" else "markdown"
        cell_kind = types.NotebookCellKind.Code if kind == "code" else types.NotebookCellKind.Markup
        self.texts[uri], self.versions[uri] = text, 1
        self.notebook_of[uri] = uris.from_fs_path(str(path))
        item = types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)
        return types.NotebookCell(kind=cell_kind, document=uri), item

    def remove_cell(self, cell_uri: str) -> None:
        notebook_uri = self.notebook_of[cell_uri]
        position = [cell.document for cell in self.cells[notebook_uri]].index(cell_uri)
        del self.cells[notebook_uri][position]
        self._notebook_change(
            notebook_uri,
            types.NotebookDocumentCellChanges(
                structure=types.NotebookDocumentCellChangeStructure(
                    array=types.NotebookCellArrayChange(start=position, delete_count=1),
                    did_close=[types.TextDocumentIdentifier(uri=cell_uri)],
                )
            ),
        )

    def _notebook_change(self, notebook_uri: str, cells: types.NotebookDocumentCellChanges) -> None:
        self.versions[notebook_uri] += 1
        self.client.notebook_document_did_change(
            types.DidChangeNotebookDocumentParams(
                notebook_document=types.VersionedNotebookDocumentIdentifier(
                    uri=notebook_uri, version=self.versions[notebook_uri]
                ),
                change=types.NotebookDocumentChangeEvent(cells=cells),
            )
        )

    def change(self, uri: str, text: str) -> int:
        self.texts[uri] = text
        self.versions[uri] += 1
        if uri in self.notebook_of:
            change = types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
            self._notebook_change(self.notebook_of[uri], types.NotebookDocumentCellChanges(text_content=[change]))
            return self.versions[uri]
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
        return self.versions[uri]

    def save(self, uri: str) -> None:
        self.client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))

    def close(self, uri: str) -> None:
        self.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )

    # -- diagnostics ------------------------------------------------------------------------

    async def wait_for_diagnostics(
        self, uri: str, predicate: Callable[[list[types.Diagnostic]], bool] = bool, version: int | None = None
    ) -> list[types.Diagnostic]:
        """The first pushed list for ``uri`` (and ``version``) that satisfies ``predicate``."""
        seen = 0
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while asyncio.get_running_loop().time() < deadline:
            for params in self.client.published[seen:]:
                if params.uri == uri and (version is None or params.version == version):
                    if predicate(list(params.diagnostics)):
                        return list(params.diagnostics)
            seen = len(self.client.published)
            await asyncio.sleep(0.01)
        raise AssertionError(f"no matching diagnostics for {uri}; got {self.pushed(uri)}")

    async def wait_for_cells(self, expected: dict[str, list[str]]) -> None:
        """Until the latest pushed list of every cell has exactly the ``expected`` codes."""
        deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
        while asyncio.get_running_loop().time() < deadline:
            if all(self.pushed(uri) and codes(self.pushed(uri)[-1].diagnostics) == want for uri, want in expected.items()):
                return
            await asyncio.sleep(0.01)
        raise AssertionError({uri: [codes(p.diagnostics) for p in self.pushed(uri)] for uri in expected})

    def pushed(self, uri: str) -> list[types.PublishDiagnosticsParams]:
        return [params for params in self.client.published if params.uri == uri]

    async def diagnostics(self, uri: str, version: int | None = None) -> list[types.Diagnostic]:
        """The diagnostics of the current text, the way this editor gets them."""
        if self.pulls:
            return await self.pull(uri)
        return await self.wait_for_diagnostics(uri, predicate=lambda _: True, version=version or self.versions[uri])

    async def pull(self, uri: str) -> list[types.Diagnostic]:
        report = await self.client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        return list(report.items)

    # -- code actions and edits -------------------------------------------------------------

    async def code_actions(
        self, uri: str, line: int, only: list[str] | None = None, diagnostics=()
    ) -> list[types.CodeAction]:
        position = types.Position(line=line, character=0)
        found = await self.client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(start=position, end=position),
                context=types.CodeActionContext(diagnostics=list(diagnostics), only=only),
            )
        )
        return list(found or [])

    async def resolved(self, action: types.CodeAction) -> types.CodeAction:
        if action.edit is None:
            action = await self.client.code_action_resolve_async(action)
        return action

    def apply(self, edit: types.WorkspaceEdit) -> dict[str, int]:
        """Apply a workspace edit like an editor would: send the new texts; return their versions."""
        if edit.document_changes:
            per_uri = {change.text_document.uri: list(change.edits) for change in edit.document_changes}
        else:
            per_uri = {uri: list(edits) for uri, edits in (edit.changes or {}).items()}
        return {uri: self.change(uri, apply_text_edits(self.texts[uri], edits, self.encoding)) for uri, edits in per_uri.items()}


def to_offset(text: str, position: types.Position, encoding: str) -> int:
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+", text)  # LSP lines, not str.splitlines
    start = sum(len(line) for line in lines[: position.line])
    line = lines[position.line] if position.line < len(lines) else ""
    units = 0
    for index, char in enumerate(line):
        if units >= position.character:
            return start + index
        units += unit_count(char, encoding)
    return start + len(line.rstrip("\r\n"))


def unit_count(char: str, encoding: str) -> int:
    if encoding == types.PositionEncodingKind.Utf8:
        return len(char.encode("utf-8"))
    if encoding == types.PositionEncodingKind.Utf32:
        return 1
    return 2 if ord(char) > 0xFFFF else 1


def range_text(text: str, span: types.Range, encoding: str) -> str:
    return text[to_offset(text, span.start, encoding) : to_offset(text, span.end, encoding)]


def apply_text_edits(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    spans = sorted(
        ((to_offset(text, edit.range.start, encoding), to_offset(text, edit.range.end, encoding), edit.new_text) for edit in edits),
        reverse=True,
    )
    for start, end, new_text in spans:
        text = text[:start] + new_text + text[end:]
    return text


@contextlib.asynccontextmanager
async def lsp_session(
    capabilities: types.ClientCapabilities,
    folders: list[Path] = (),
    initialization_options: Any = None,
    configuration: dict[str, Any] | None = None,
    client_features: dict[str, Callable] | None = None,
    server_command: list[str] = SERVER_COMMAND,
):
    """A started, initialised server; ``configuration`` maps a folder uri ("" = global) to its
    ``tfscope`` section for ``workspace/configuration``."""
    features = {**DEFAULT_CLIENT_FEATURES, types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS: _record_published}
    config = ClientServerConfig(
        server_command=server_command, client_factory=lambda: _recording_client({**features, **(client_features or {})})
    )
    client = await config.start()
    session = Session(client, types.PositionEncodingKind.Utf16, pulls=False)
    for scope, section in (configuration or {}).items():
        client.set_configuration(section, section="tfscope", scope_uri=scope)
    folder_list = [types.WorkspaceFolder(uri=uris.from_fs_path(str(folder)), name=folder.name) for folder in folders]
    response = await client.initialize_session(
        types.InitializeParams(
            capabilities=capabilities,
            workspace_folders=folder_list or None,
            root_uri=folder_list[0].uri if folder_list else None,
            initialization_options=initialization_options,
        )
    )
    session.encoding = response.capabilities.position_encoding or types.PositionEncodingKind.Utf16
    session.pulls = response.capabilities.diagnostic_provider is not None
    try:
        yield session
    finally:
        await client.shutdown_session()
        await client.stop()


def _recording_client(features: dict[str, Callable]) -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    client.published = []  # every publishDiagnostics, in arrival order
    register_lsp_features(client, features)
    return client


def _record_published(client: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    client.published.append(params)
    client.diagnostics[params.uri] = params.diagnostics


def codes(diagnostics) -> list[str]:
    return [diagnostic.code for diagnostic in diagnostics]
