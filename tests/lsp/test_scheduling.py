"""One slow document never holds up the diagnostics of the others (issue 8); edits that arrive
during an analysis are coalesced, and a stale result is never published (issue 10)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from .session import MODEL_INSIDE_SCOPE, MODEL_OUTSIDE_SCOPE, WAIT_SECONDS, codes, lsp_session, neovim

SLOW_SERVER = [sys.executable, str(Path(__file__).with_name("slow_server.py"))]


async def test_a_slow_document_does_not_block_the_others(tmp_path):
    release = tmp_path / "release"
    async with lsp_session(neovim("v0.7.0"), [tmp_path], server_command=SLOW_SERVER + [str(release)]) as session:
        slow = session.open(tmp_path / "slow.py", MODEL_OUTSIDE_SCOPE)
        for edit in range(3):  # typing into the slow file must not fill every analysis thread
            session.change(slow, MODEL_OUTSIDE_SCOPE + f"# {edit}\n")
        others = [session.open(tmp_path / f"other{n}.py", MODEL_OUTSIDE_SCOPE) for n in range(3)]
        for uri in others:
            assert codes(await session.wait_for_diagnostics(uri)) == ["TFS001"]
        assert not session.pushed(slow), "the slow document was not held back at all"
        release.write_text("")
        # the latest text wins once the slow analysis ends
        version = session.change(slow, MODEL_INSIDE_SCOPE)
        assert codes(await session.wait_for_diagnostics(slow, predicate=lambda _: True, version=version)) == []


async def _until(condition) -> None:
    deadline = asyncio.get_running_loop().time() + WAIT_SECONDS
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "the server never got there"
        await asyncio.sleep(0.02)


async def test_edits_during_an_analysis_become_one_analysis_of_the_newest_text(tmp_path):
    release, analysed = tmp_path / "release", tmp_path / "release.log"
    async with lsp_session(neovim("v0.7.0"), [tmp_path], server_command=SLOW_SERVER + [str(release)]) as session:
        slow = session.open(tmp_path / "slow.py", MODEL_OUTSIDE_SCOPE + "# opened\n")
        await _until(lambda: analysed.exists())  # the analysis of the opened text started and is held
        for number in range(20):
            final = session.change(slow, MODEL_INSIDE_SCOPE + f"# edit {number}\n")
        other = session.open(tmp_path / "other.py", MODEL_OUTSIDE_SCOPE)
        await session.wait_for_diagnostics(other)  # messages are handled in order: every edit was read
        release.write_text("")
        assert codes(await session.wait_for_diagnostics(slow, predicate=lambda _: True, version=final)) == []
        assert analysed.read_text().splitlines() == ["# opened", "# edit 19"]
        # the opened text's result came back after it was edited: stale, never published
        assert [params.version for params in session.pushed(slow)] == [final]
