"""jedi answers what the file cannot tell, off the request path: the static result comes first."""

from __future__ import annotations

import asyncio
import textwrap

from .session import EDITORS, codes, lsp_session
from .test_settings import eventually

FACTORY = textwrap.dedent(
    """\
    from tensorflow import keras


    def build_model():
        return keras.Sequential([keras.Input(shape=(4,)), keras.layers.Dense(1)])
    """
)
# `mypkg/__init__.py` re-exports the factory: only jedi follows that import to `mypkg/models.py`
TRAIN = textwrap.dedent(
    """\
    import tensorflow as tf
    from mypkg import build_model

    strategy = tf.distribute.MirroredStrategy()
    model = build_model()
    with strategy.scope():
        model.compile(optimizer="adam", loss="mse")
    """
)


async def test_factory_from_another_module_is_reported_once_jedi_has_answered(tmp_path):
    _project(tmp_path)
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TRAIN)
        first = await session.wait_for_diagnostics(uri, predicate=lambda diagnostics: True, version=1)
        assert first == [], "the static pass cannot see into mypkg and must not wait for jedi"
        resolved = await session.wait_for_diagnostics(uri, predicate=lambda d: codes(d) == ["TFS001"], version=1)
        assert resolved[0].range.start.line == 4
        assert "build_model()" in resolved[0].message



def _project(folder) -> None:
    (folder / "mypkg").mkdir()
    (folder / "mypkg" / "__init__.py").write_text("from mypkg.models import build_model\n")
    (folder / "mypkg" / "models.py").write_text(FACTORY)


async def test_a_factory_the_imported_module_defines_is_in_the_first_diagnostics(tmp_path):
    """`from mypkg.models import build_model` and `mypkg/models.py` defines it: read from the file, no jedi."""
    _project(tmp_path)
    async with lsp_session(EDITORS["neovim"](), [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TRAIN.replace("from mypkg import", "from mypkg.models import"))
        first = await session.wait_for_diagnostics(uri, predicate=lambda diagnostics: True, version=1)
        assert codes(first) == ["TFS001"] and first[0].range.start.line == 4


async def test_work_done_progress_while_jedi_resolves(tmp_path):
    _project(tmp_path)
    capabilities = EDITORS["neovim"]()
    assert capabilities.window.work_done_progress
    async with lsp_session(capabilities, [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TRAIN)
        # messages arrive in order: the progress ended before the re-analysis it enabled
        await session.wait_for_diagnostics(uri, predicate=lambda d: codes(d) == ["TFS001"], version=1)
        reports = list(session.client.progress_reports.values())
        assert reports and all(
            [type(report).__name__ for report in token_reports] == ["WorkDoneProgressBegin", "WorkDoneProgressEnd"]
            for token_reports in reports
        ), reports
        assert reports[0][0].title == "tfscope: resolving project imports"


async def test_no_progress_when_the_client_cannot_show_it(tmp_path):
    _project(tmp_path)
    capabilities = EDITORS["neovim"]()
    capabilities.window.work_done_progress = False
    async with lsp_session(capabilities, [tmp_path]) as session:
        uri = session.open(tmp_path / "train.py", TRAIN)
        await session.wait_for_diagnostics(uri, predicate=lambda d: codes(d) == ["TFS001"], version=1)
        assert session.client.progress_reports == {}


async def test_a_pulling_client_is_asked_to_pull_again_once_jedi_has_answered(tmp_path):
    _project(tmp_path)
    async with lsp_session(EDITORS["vscode"](), [tmp_path]) as session:
        assert session.pulls
        uri = session.open(tmp_path / "train.py", TRAIN)
        assert codes(await session.pull(uri)) in ([], ["TFS001"])  # the static pass, unless jedi was quicker
        await eventually(lambda: asyncio.sleep(0, session.client.diagnostic_refresh_count > 0), "refresh")
        assert codes(await session.pull(uri)) == ["TFS001"]
