"""One slow document never holds up the diagnostics of the others (issue 8)."""

from __future__ import annotations

import sys
from pathlib import Path

from .session import MODEL_INSIDE_SCOPE, MODEL_OUTSIDE_SCOPE, codes, lsp_session, neovim

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
