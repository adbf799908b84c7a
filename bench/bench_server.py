"""Benchmark of the language server next to ``ruff server`` (not a test: it prints, asserts nothing).

An independent LSP client (the standard library only: no pygls on this side) drives each server
over stdio on the same generated files in the same run:

1. start-up: process start -> ``initialize`` answered; ``didOpen`` of a 300-line script sent
   right after ``initialized`` -> its first diagnostics; tfscope's own import time next to
   pygls + lsprotocol (``python -X importtime``).
2. edit -> diagnostics of that version, one character typed into a comment (which leaves the
   syntax tree as it was) and, for scripts, into a string in the code (which does not), for
   300 / 3,000 / 30,000-line scripts and a 40-cell notebook, three ways: back-to-back (the next edit as soon
   as the diagnostics of the last arrived), one keystroke at human speed (a pause between
   keystrokes), and typing bursts (a few fast keystrokes; from the last one to its diagnostics).
3. RSS (VmRSS) with a 300-line file open, after 10,000 more edits of it, and after 200 more
   documents opened, analysed and closed.
4. a profile of tfscope's server during back-to-back typing (every thread): top functions.

ruff (and pyflakes, for bench_engine.py) are in the optional ``bench`` extra:
``.venv/bin/pip install -e '.[bench]'``; a peer that is not installed is skipped, and the bench says so.
Targets (issue 10): 300 lines p50 <= 3x ruff server and p95 <= 2x p50; 3,000 lines p50 <= 30 ms;
first diagnostics <= 50 ms after didOpen; RSS <= 50 MiB with a 300-line file open, flat over
10,000 edits and 200 documents.

Run: .venv/bin/python bench/bench_server.py [--quick] [--only startup|latency|memory|profile]
"""

from __future__ import annotations

import argparse
import json
import os
import pstats
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench_engine import BLOCKS, HEADER, compile_like_an_install, training_script

HERE = Path(__file__).resolve().parent
TYPING_LINE = "# typing here: "
HUMAN_PAUSE_SECONDS = 0.15  # about 7 keystrokes a second
BURST_KEYSTROKES, BURST_GAP_SECONDS, BURST_PAUSE_SECONDS = 6, 0.03, 0.3
WAIT_SECONDS = 120.0  # a ceiling for a lost message, never part of a number
NOTEBOOK_CELLS = 40
CAPABILITIES = {  # push diagnostics with versions, incremental sync, notebooks: what both servers serve
    "textDocument": {
        "synchronization": {"didSave": True},
        "publishDiagnostics": {"versionSupport": True},
    },
    "notebookDocument": {"synchronization": {}},
    "workspace": {"configuration": True, "workspaceFolders": True},
    "general": {"positionEncodings": ["utf-16"]},
}
# (lines, back-to-back edits, human-speed edits, bursts); --quick divides the counts by 4
SIZES = ((300, 200, 40, 20), (3_000, 60, 20, 10), (30_000, 12, 5, 4))
NOTEBOOK_COUNTS = (100, 20, 10)


def uri_of(path: Path) -> str:
    return path.as_uri()


@dataclass
class Peer:
    name: str
    command: list[str]
    note: str = ""


def peers() -> list[Peer | str]:
    """tfscope, then ruff server if installed (a string says why a peer is skipped)."""
    found: list[Peer | str] = [Peer("tfscope", [sys.executable, "-m", "tfscope.lsp"])]
    ruff = shutil.which("ruff", path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")]))
    if ruff:
        version = subprocess.run([ruff, "--version"], capture_output=True, text=True).stdout.strip()
        found.append(Peer("ruff", [ruff, "server"], version))
    else:
        found.append("ruff server: not installed (pip install -e '.[bench]'); skipped")
    return found


@dataclass
class Published:
    uri: str
    version: int | None
    at: float


class Server:
    """A language server process and a minimal JSON-RPC client for it."""

    def __init__(self, command: list[str], cwd: Path) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.ids = iter(range(1, 10**9))
        self.responses: dict[int, queue.Queue] = {}
        self.published: list[Published] = []
        self.changed = threading.Condition()
        self.write_lock = threading.Lock()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        with self.write_lock:
            self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
            self.process.stdin.flush()

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while (line := stream.readline()) not in (b"\r\n", b""):
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            if length is None:
                return
            message = json.loads(stream.read(length))
            arrived = time.perf_counter()
            if "method" in message and "id" in message:
                self._answer(message)
            elif "id" in message:
                self.responses.setdefault(message["id"], queue.Queue()).put(message)
            elif message["method"] == "textDocument/publishDiagnostics":
                params = message["params"]
                with self.changed:
                    self.published.append(Published(params["uri"], params.get("version"), arrived))
                    self.changed.notify_all()

    def _answer(self, request: dict) -> None:
        """Requests from the server: no settings of our own, every registration and token accepted."""
        if request["method"] == "workspace/configuration":
            result = [None] * len(request["params"]["items"])
        else:
            result = None
        self._send({"id": request["id"], "result": result})

    def request(self, method: str, params) -> dict:
        request_id = next(self.ids)
        answer = self.responses.setdefault(request_id, queue.Queue())
        self._send({"id": request_id, "method": method, "params": params})
        return answer.get(timeout=WAIT_SECONDS)

    def notify(self, method: str, params) -> None:
        self._send({"method": method, "params": params})

    def wait_for(self, uri: str, version: int | None = None, after: float = 0.0) -> float:
        """When diagnostics of ``uri`` (of ``version``, or any sent after ``after``) arrived."""
        deadline = time.perf_counter() + WAIT_SECONDS
        with self.changed:
            while True:
                for published in reversed(self.published):
                    if published.uri == uri and published.at >= after and (version is None or published.version == version):
                        return published.at
                if not self.changed.wait(timeout=max(0.0, deadline - time.perf_counter())):
                    raise TimeoutError(f"no diagnostics for {uri} version {version}")

    def forget(self) -> None:
        with self.changed:
            self.published.clear()

    def rss_mib(self) -> float:
        status = Path(f"/proc/{self.process.pid}/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmRSS:")).split()[1]) / 1024

    def initialize(self, folder: Path) -> float:
        """Seconds from process start to the ``initialize`` answer."""
        self.request(
            "initialize",
            {
                "processId": os.getpid(),
                "rootUri": uri_of(folder),
                "workspaceFolders": [{"uri": uri_of(folder), "name": folder.name}],
                "capabilities": CAPABILITIES,
            },
        )
        answered = time.perf_counter() - self.started
        self.notify("initialized", {})
        return answered

    def stop(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.process.wait(timeout=20)
        except Exception:
            self.process.kill()


class TextDocument:
    """A file open in the client; types into the comment on its last line, or at ``at`` (line, column)."""

    def __init__(self, server: Server, path: Path, text: str, at: tuple[int, int] | None = None) -> None:
        self.server, self.uri, self.version = server, uri_of(path), 1
        self.line, self.column = at or (text.count("\n") - 1, len(TYPING_LINE))
        path.write_text(text)
        server.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": self.uri, "languageId": "python", "version": 1, "text": text}},
        )

    def type_character(self) -> tuple[str, int | None]:
        self.version += 1
        at = {"line": self.line, "character": self.column}
        self.column += 1
        self.server.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": self.uri, "version": self.version},
                "contentChanges": [{"range": {"start": at, "end": at}, "text": "x"}],
            },
        )
        return self.uri, self.version

    def close(self) -> None:
        self.server.notify("textDocument/didClose", {"textDocument": {"uri": self.uri}})


class Notebook:
    """A notebook open in the client; types into a comment at the end of its middle cell."""

    def __init__(self, server: Server, path: Path, cells: list[str]) -> None:
        self.server, self.uri, self.version = server, uri_of(path), 1
        self.cell_uris = [f"vscode-notebook-cell:{path}#cell{number}" for number in range(len(cells))]
        self.edited = len(cells) // 2
        self.cell_version = 1
        self.line, self.column = cells[self.edited].count("\n") - 1, len(TYPING_LINE)
        server.notify(
            "notebookDocument/didOpen",
            {
                "notebookDocument": {
                    "uri": self.uri,
                    "notebookType": "jupyter-notebook",
                    "version": 1,
                    "cells": [{"kind": 2, "document": cell_uri} for cell_uri in self.cell_uris],
                },
                "cellTextDocuments": [
                    {"uri": cell_uri, "languageId": "python", "version": 1, "text": text}
                    for cell_uri, text in zip(self.cell_uris, cells)
                ],
            },
        )

    def type_character(self) -> tuple[str, None]:
        self.version += 1
        self.cell_version += 1
        at = {"line": self.line, "character": self.column}
        self.column += 1
        cell = self.cell_uris[self.edited]
        self.server.notify(
            "notebookDocument/didChange",
            {
                "notebookDocument": {"uri": self.uri, "version": self.version},
                "change": {
                    "cells": {
                        "textContent": [
                            {
                                "document": {"uri": cell, "version": self.cell_version},
                                "changes": [{"range": {"start": at, "end": at}, "text": "x"}],
                            }
                        ]
                    }
                },
            },
        )
        return cell, None  # servers differ in the version they publish cells with: match by time

    def close(self) -> None:
        self.server.notify(
            "notebookDocument/didClose",
            {"notebookDocument": {"uri": self.uri}, "cellTextDocuments": [{"uri": uri} for uri in self.cell_uris]},
        )


def script(lines: int) -> str:
    return training_script(lines) + TYPING_LINE + "\n"


def in_code(text: str) -> tuple[int, int]:
    """Inside a model's name in the middle of the file: each keystroke changes the syntax tree
    (and still parses), so the whole module is interpreted again."""
    at = text.index('name="', len(text) // 2) + len('name="')
    line = text.count("\n", 0, at)
    return line, at - (text.rindex("\n", 0, at) + 1)


def notebook_cells() -> list[str]:
    cells = [HEADER] + [BLOCKS[n % len(BLOCKS)].format(n=n // len(BLOCKS)).strip("\n") + "\n" for n in range(NOTEBOOK_CELLS - 1)]
    cells[len(cells) // 2] += TYPING_LINE + "\n"
    return cells


# -- measurements --------------------------------------------------------------------------------


@dataclass
class Latencies:
    back_to_back: list[float] = field(default_factory=list)
    human: list[float] = field(default_factory=list)
    burst: list[float] = field(default_factory=list)


def type_and_measure(document, back_to_back: int, human: int, bursts: int) -> Latencies:
    server = document.server
    measured = Latencies()

    def one_edit() -> float:
        sent = time.perf_counter()
        uri, version = document.type_character()
        return server.wait_for(uri, version, after=sent) - sent

    for _ in range(back_to_back):
        measured.back_to_back.append(one_edit())
    for _ in range(human):
        time.sleep(HUMAN_PAUSE_SECONDS)
        measured.human.append(one_edit())
    for _ in range(bursts):
        time.sleep(BURST_PAUSE_SECONDS)
        for _ in range(BURST_KEYSTROKES - 1):
            document.type_character()
            time.sleep(BURST_GAP_SECONDS)
        measured.burst.append(one_edit())
    return measured


def percentiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return (values[0], values[0]) if values else (float("nan"), float("nan"))
    cuts = statistics.quantiles(values, n=100, method="inclusive")
    return cuts[49], cuts[94]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.1f}"


def bench_startup(peer: Peer, folder: Path) -> dict:
    server = Server(peer.command, folder)
    initialized = server.initialize(folder)
    sent = time.perf_counter()
    document = TextDocument(server, folder / f"first_{peer.name}.py", script(300))
    first = server.wait_for(document.uri, 1) - sent
    sent = time.perf_counter()
    another = TextDocument(server, folder / f"second_{peer.name}.py", script(300))
    second = server.wait_for(another.uri, 1) - sent
    server.stop()
    return {"initialize": initialized, "first": first, "second": second}


def bench_latency(peer: Peer, folder: Path, quick: bool) -> dict[str, Latencies]:
    divisor = 4 if quick else 1
    server = Server(peer.command, folder)
    server.initialize(folder)
    found: dict[str, Latencies] = {}
    for lines, back_to_back, human, bursts in SIZES:
        document = TextDocument(server, folder / f"typing_{lines}_{peer.name}.py", script(lines))
        server.wait_for(document.uri, 1)
        counts = [max(1, count // divisor) for count in (back_to_back, human, bursts)]
        found[f"{lines:,} lines"] = type_and_measure(document, *counts)
        document.close()
        text = script(lines)
        document = TextDocument(server, folder / f"coding_{lines}_{peer.name}.py", text, at=in_code(text))
        server.wait_for(document.uri, 1)
        found[f"{lines:,}, in code"] = type_and_measure(document, *counts)
        document.close()
    notebook = Notebook(server, folder / f"typing_{peer.name}.ipynb", notebook_cells())
    server.wait_for(notebook.cell_uris[notebook.edited])
    found[f"{NOTEBOOK_CELLS}-cell notebook"] = type_and_measure(notebook, *(max(1, n // divisor) for n in NOTEBOOK_COUNTS))
    notebook.close()
    server.stop()
    return found


def bench_memory(peer: Peer, folder: Path, edits: int, documents: int) -> dict:
    server = Server(peer.command, folder)
    server.initialize(folder)
    text = script(300)
    document = TextDocument(server, folder / f"memory_{peer.name}.py", text)
    server.wait_for(document.uri, 1)
    time.sleep(0.5)
    open_rss = server.rss_mib()
    for number in range(edits):
        uri, version = document.type_character()
        if number % 50 == 49:  # a typist's pauses: the coalesced analysis lands
            server.wait_for(uri, version)
    server.wait_for(*document.type_character())
    server.forget()
    time.sleep(0.5)
    edits_rss = server.rss_mib()
    for number in range(documents):
        other = TextDocument(server, folder / f"memory_{peer.name}_{number}.py", text)
        server.wait_for(other.uri, 1)
        other.close()
    server.forget()
    time.sleep(0.5)
    documents_rss = server.rss_mib()
    server.stop()
    return {"open": open_rss, "edits": edits_rss, "documents": documents_rss}


def bench_profile(folder: Path, edits: int) -> None:
    stats_path = folder / "tfscope.pstats"
    server = Server([sys.executable, str(HERE / "profiled_server.py"), str(stats_path)], folder)
    server.initialize(folder)
    document = TextDocument(server, folder / "profiled.py", script(3_000))
    server.wait_for(document.uri, 1)
    for _ in range(edits):
        sent = time.perf_counter()
        uri, version = document.type_character()
        server.wait_for(uri, version, after=sent)
    server.stop()
    print(f"\nprofile: tfscope server, every thread, {edits} back-to-back edits of a 3,000-line script (top 15 by own time)")
    stats = pstats.Stats(str(stats_path))
    stats.sort_stats("tottime")
    working = [key for key in stats.fcn_list if not any(wait in key[2] for wait in WAITING)][:15]
    width = max(len(_function_name(key)) for key in working)
    print(f"  {'function':<{width}} {'calls':>9} {'own ms':>9} {'cumulative ms':>14}")
    for key in working:
        calls, _, own, cumulative, _ = stats.stats[key]
        print(f"  {_function_name(key):<{width}} {calls:>9} {own * 1000:>9.1f} {cumulative * 1000:>14.1f}")


# idle threads: waiting for a message, a job or a lock is not where time goes
WAITING = ("SimpleQueue' objects>", "'readline' of", "'poll' of", "'acquire' of", "'select' of", "time.sleep")


def _function_name(key: tuple[str, int, str]) -> str:
    filename, line, name = key
    for marker in ("site-packages" + os.sep, str(HERE.parent) + os.sep, f"python{sys.version_info[0]}.{sys.version_info[1]}{os.sep}"):
        if marker in filename:
            filename = filename.split(marker, 1)[1]
            break
    return f"{filename}:{line}({name})"


def import_times(runs: int = 5) -> tuple[float, float, list[str]]:
    """(pygls.lsp.server + lsprotocol.types, then tfscope.lsp.server on top of them) in ms, the
    fastest of ``runs`` processes, and the modules tfscope's server adds."""
    statement = "import pygls.lsp.server, lsprotocol.types; import tfscope.lsp.server"
    best = (float("inf"), float("inf"), [])
    for _ in range(runs):
        done = subprocess.run([sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True)
        rows = [line.split("|") for line in done.stderr.splitlines()[1:] if line.startswith("import time:")]  # no header
        names = [row[2].strip() for row in rows]
        cumulative = {name: int(row[1]) / 1000 for name, row in zip(names, rows)}
        theirs = cumulative["pygls.lsp.server"] + cumulative["lsprotocol.types"]
        # modules already imported by pygls are not imported again: the rest is tfscope's own
        ours = cumulative["tfscope.lsp.server"]
        added = names[max(names.index("pygls.lsp.server"), names.index("lsprotocol.types")) + 1 :]
        if ours < best[1]:
            best = (theirs, ours, added)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a quarter of the edits")
    parser.add_argument("--only", choices=["startup", "latency", "memory", "profile"])
    parser.add_argument("--session-edits", type=int, default=10_000)
    parser.add_argument("--documents", type=int, default=200)
    args = parser.parse_args()
    print(compile_like_an_install())
    found = peers()
    available = [peer for peer in found if isinstance(peer, Peer)]
    for skipped in (peer for peer in found if isinstance(peer, str)):
        print(f"note: {skipped}")
    for peer in available:
        print(f"peer: {peer.name} {peer.note} ({' '.join(peer.command[-2:])})")

    def wanted(part: str) -> bool:
        return args.only in (None, part)

    with tempfile.TemporaryDirectory(prefix="tfscope-bench-") as directory:
        folder = Path(directory)
        if wanted("startup"):
            theirs, ours, added = import_times()
            print(f"\nimport time (-X importtime, fastest of 5): pygls.lsp.server + lsprotocol.types {theirs:.1f} ms; "
                  f"then tfscope.lsp.server {ours:.1f} ms more, for {len(added)} modules: "
                  f"{', '.join(added[:10])}{', ...' if len(added) > 10 else ''}")
            print(f"\n{'start-up, ms':<58}" + "".join(f"{peer.name:>14}" for peer in available))
            runs = {peer.name: [bench_startup(peer, folder) for _ in range(3)] for peer in available}
            for label, key in (("initialize answered (ms, median of 3)", "initialize"),
                               ("didOpen right after initialized -> diagnostics, 300 lines", "first"),
                               ("the next file's didOpen -> diagnostics", "second")):
                medians = [statistics.median(run[key] for run in runs[peer.name]) for peer in available]
                print(f"{label:<58}" + "".join(f"{ms(median):>14}" for median in medians))
        if wanted("latency"):
            results = {peer.name: bench_latency(peer, folder, args.quick) for peer in available}
            print("\nedit -> diagnostics of that version, ms (p50 / p95)")
            header = f"{'file':<20}{'typing':<16}" + "".join(f"{peer.name:>22}" for peer in available)
            print(header)
            for target in results[available[0].name]:
                for mode in ("back_to_back", "human", "burst"):
                    cells = []
                    for peer in available:
                        values = getattr(results[peer.name][target], mode)
                        p50, p95 = percentiles(values)
                        cells.append(f"{p50 * 1000:8.1f} / {p95 * 1000:6.1f} (n={len(values)})".rjust(22))
                    print(f"{target:<20}{mode.replace('_', '-'):<16}" + "".join(cells))
        if wanted("memory"):
            print(f"\nRSS, MiB{'':<32}" + "".join(f"{peer.name:>14}" for peer in available))
            memory = {peer.name: bench_memory(peer, folder, args.session_edits, args.documents) for peer in available}
            for label, key in (("a 300-line file open", "open"), (f"after {args.session_edits:,} more edits", "edits"),
                               (f"after {args.documents} documents opened and closed", "documents")):
                print(f"{label:<40}" + "".join(f"{memory[peer.name][key]:>14.1f}" for peer in available))
        if wanted("profile"):
            bench_profile(folder, 25 if args.quick else 100)


if __name__ == "__main__":
    main()
