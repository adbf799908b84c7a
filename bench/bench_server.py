"""Benchmark of the language server (not a test): drives the real server over stdio, prints numbers.

1. Time to first diagnostics after didOpen, for a 300-line and a 3,000-line training script.
2. didChange -> publishDiagnostics latency, p50/p95 over 200 typing edits (one character each,
   a typing pace slower than the debounce window, so every edit is analysed on its own), and the
   time from the last edit of a 200-edit burst (10 ms apart, coalesced) to its diagnostics.
3. The server's memory (VmRSS from /proc) after opening 50 such files, after closing them, and
   after a second round of 50: growth should stay flat over a long session.
4. A long session (issue 8): RSS at a steady state (after 1,000 edits), after 10,000 edits of one
   100-line file, and after 200 more documents opened, analysed and closed; goal: within 10 %
   of the steady state.

Target (issue 3): p50 under 20 ms and p95 under 50 ms for the 300-line script on this machine.
Run: .venv/bin/python bench/bench_server.py [--edits 200] [--files 50] [--session-edits 10000]
     [--documents 200] [--only latency|memory|session]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls import uris
from pygls.lsp.client import LanguageClient

from bench_engine import training_script

SERVER_COMMAND = [sys.executable, "-m", "tfscope.lsp"]
TYPING_PAUSE_SECONDS = 0.12  # about 8 keystrokes a second, a brisk typist
BURST_PAUSE_SECONDS = 0.01
CAPABILITIES = types.ClientCapabilities(
    text_document=types.TextDocumentClientCapabilities(
        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True)
    )
)


class BenchClient(LanguageClient):
    """Records when each (uri, version) got its diagnostics."""

    def __init__(self) -> None:
        super().__init__("tfscope-bench", "1")
        self.arrivals: dict[tuple[str, int | None], float] = {}
        self.arrived = asyncio.Event()

        @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls: BenchClient, params: types.PublishDiagnosticsParams) -> None:
            ls.arrivals[(params.uri, params.version)] = time.perf_counter()
            ls.arrived.set()

        @self.feature(types.WINDOW_LOG_MESSAGE)
        def logged(ls: BenchClient, params: types.LogMessageParams) -> None:
            pass  # the server's startup log is not what is measured here

    async def wait_for(self, uri: str, version: int) -> float:
        while (uri, version) not in self.arrivals:
            self.arrived.clear()
            await self.arrived.wait()
        return self.arrivals[(uri, version)]

    def rss_kib(self) -> int:
        status = Path(f"/proc/{self._server.pid}/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1])


def open_document(client: BenchClient, path: Path, text: str) -> str:
    path.write_text(text)
    uri = uris.from_fs_path(str(path))
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text))
    )
    return uri


def type_character(client: BenchClient, uri: str, version: int, line: int, column: int) -> None:
    at = types.Position(line=line, character=column)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangePartial(range=types.Range(start=at, end=at), text="x")],
        )
    )


def close_document(client: BenchClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri=uri)))


def milliseconds(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


async def bench_latency(client: BenchClient, folder: Path, lines: int, edits: int) -> None:
    text = training_script(lines) + "# typing here: \n"
    last_line = text.count("\n") - 1
    column = len("# typing here: ")
    started = time.perf_counter()
    uri = open_document(client, folder / f"script_{lines}.py", text)
    first = await client.wait_for(uri, 1) - started
    latencies = []
    version = 1
    for _ in range(edits):
        await asyncio.sleep(TYPING_PAUSE_SECONDS)
        version += 1
        sent = time.perf_counter()
        type_character(client, uri, version, last_line, column)
        column += 1
        latencies.append(await client.wait_for(uri, version) - sent)
    for _ in range(edits):
        version += 1
        type_character(client, uri, version, last_line, column)
        column += 1
        last_sent = time.perf_counter()
        await asyncio.sleep(BURST_PAUSE_SECONDS)
    burst = await client.wait_for(uri, version) - last_sent
    burst_published = sum(1 for (each_uri, each_version) in client.arrivals if each_uri == uri and each_version > version - edits)
    close_document(client, uri)
    percentiles = statistics.quantiles(latencies, n=100)
    print(
        f"{text.count(chr(10)):>5}-line script: first diagnostics {milliseconds(first)} | "
        f"didChange->diagnostics p50 {milliseconds(percentiles[49])}  p95 {milliseconds(percentiles[94])}  "
        f"max {milliseconds(max(latencies))} over {edits} typed edits | "
        f"burst of {edits}: final diagnostics {milliseconds(burst)} after the last edit, {burst_published} publishes"
    )


async def bench_memory(client: BenchClient, folder: Path, files: int) -> None:
    scripts = {lines: training_script(lines) for lines in (300, 3000)}
    print(f"server RSS at start of the memory run: {client.rss_kib() / 1024:7.1f} MiB")
    for round_number in (1, 2):
        for lines, text in scripts.items():
            opened = [open_document(client, folder / f"memory_{lines}_{index}.py", text) for index in range(files)]
            for uri in opened:
                await client.wait_for(uri, 1)
            print(f"round {round_number}: {files} open {lines}-line files: RSS {client.rss_kib() / 1024:7.1f} MiB")
            for uri in opened:
                close_document(client, uri)
                client.arrivals.pop((uri, 1), None)
            await asyncio.sleep(0.5)
            print(f"round {round_number}: after closing them:       RSS {client.rss_kib() / 1024:7.1f} MiB")


async def bench_long_session(client: BenchClient, folder: Path, edits: int, documents: int) -> None:
    text = training_script(100) + "# typing here: \n"
    last_line, column = text.count("\n") - 1, len("# typing here: ")
    uri = open_document(client, folder / "session.py", text)
    await client.wait_for(uri, 1)
    version = 1

    async def type_edits(count: int) -> None:
        nonlocal version, column
        for number in range(count):
            version += 1
            type_character(client, uri, version, last_line, column)
            column += 1
            if number % 100 == 99:  # let the coalesced analysis land, as a typist's pauses do
                await client.wait_for(uri, version)
        await asyncio.sleep(0.5)

    await type_edits(1_000)
    steady = client.rss_kib()
    await type_edits(edits)
    after_edits = client.rss_kib()
    for index in range(documents):
        opened = open_document(client, folder / f"session_{index}.py", text)
        await client.wait_for(opened, 1)
        close_document(client, opened)
        client.arrivals.pop((opened, 1), None)
    await asyncio.sleep(0.5)
    after_documents = client.rss_kib()
    close_document(client, uri)

    def against_steady(kib: int) -> str:
        return f"{kib / 1024:7.1f} MiB ({(kib - steady) / steady * 100:+5.1f} %)"

    print(
        f"long session: steady state (1,000 edits) {steady / 1024:7.1f} MiB | after {edits:,} more edits "
        f"{against_steady(after_edits)} | after {documents} documents opened and closed {against_steady(after_documents)}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--files", type=int, default=50)
    parser.add_argument("--session-edits", type=int, default=10_000)
    parser.add_argument("--documents", type=int, default=200)
    parser.add_argument("--only", choices=["latency", "memory", "session"])
    args = parser.parse_args()
    client = BenchClient()
    await client.start_io(*SERVER_COMMAND)
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        await client.initialize_async(
            types.InitializeParams(
                capabilities=CAPABILITIES,
                root_uri=uris.from_fs_path(directory),
                workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(directory), name="bench")],
            )
        )
        client.initialized(types.InitializedParams())
        if args.only in (None, "latency"):
            for lines in (300, 3000):
                await bench_latency(client, folder, lines, args.edits)
        if args.only in (None, "memory"):
            await bench_memory(client, folder, args.files)
        if args.only in (None, "session"):
            await bench_long_session(client, folder, args.session_edits, args.documents)
        await client.shutdown_async(None)
        client.exit(None)
    await client.stop()


if __name__ == "__main__":
    asyncio.run(main())
