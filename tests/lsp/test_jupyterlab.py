"""JupyterLab's client (jupyterlab-lsp) as the server sees it: started by the spec jupyter-lsp
loads from tfscope's entry point, sent a notebook as one Python document of its code cells
(markdown cells blanked, two blank lines between cells, IPython syntax rewritten as Python),
pushed diagnostics at that document's lines, settings from its ``serverSettings``.

The client capabilities and the document text are the ones jupyterlab-lsp 5.3 sent in the
JupyterLab end-to-end test (tests/e2e/test_jupyterlab.py), recorded.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import entry_points
from pathlib import Path

from lsprotocol import types
from pygls.protocol import default_converter

from .session import codes, lsp_session, range_text

RECORDED_CAPABILITIES = Path(__file__).parent / "clients" / "jupyterlab-lsp-5.3.0.json"
CREATING_CALL = "tf.keras.Sequential([tf.keras.layers.Dense(1)])"
# cells: "# Training" (markdown), the strategy, `%matplotlib inline` + `!nvidia-smi` + the model,
# a `%%time` cell compiling under the scope
VIRTUAL_DOCUMENT = (
    "\n\n\n"
    "import tensorflow as tf\n\nstrategy = tf.distribute.MirroredStrategy()\n\n\n"
    'get_ipython().run_line_magic("matplotlib", " inline")\nget_ipython().getoutput("nvidia-smi")\n'
    f"model = {CREATING_CALL}  # 🚀\n\n\n"
    '# START_CELL_MAGIC("time", "")\nwith strategy.scope():\n    model.compile(optimizer="adam", loss="mse")\n'
    "# END_CELL_MAGIC\n"
)
MODEL_LINE = 10  # 0-based, in the virtual document


def jupyterlab_lsp() -> types.ClientCapabilities:
    return default_converter().structure(json.loads(RECORDED_CAPABILITIES.read_text()), types.ClientCapabilities)


def spec() -> dict:
    (entry_point,) = [point for point in entry_points(group="jupyter_lsp_spec_v1") if point.name == "tfscope"]
    return entry_point.load()(None)["tfscope"]


def test_the_spec_runs_the_server_with_the_python_running_jupyter():
    found = spec()
    assert found["argv"] == [sys.executable, "-m", "tfscope", "serve"]
    assert found["languages"] == ["python"]
    assert found["requires_documents_on_disk"] is False


async def test_findings_land_on_the_virtual_documents_lines(tmp_path):
    async with lsp_session(jupyterlab_lsp(), server_command=spec()["argv"]) as session:
        assert not session.pulls  # jupyterlab-lsp only takes publishDiagnostics
        uri = session.open(tmp_path / "train.ipynb", VIRTUAL_DOCUMENT)
        (diagnostic,) = await session.diagnostics(uri)
        assert diagnostic.code == "TFS001"
        assert diagnostic.range.start.line == MODEL_LINE
        assert range_text(VIRTUAL_DOCUMENT, diagnostic.range, session.encoding) in {"model", CREATING_CALL}

        fixed = VIRTUAL_DOCUMENT.replace(f"model = {CREATING_CALL}", f"with strategy.scope():\n    model = {CREATING_CALL}")
        version = session.change(uri, fixed)
        assert codes(await session.diagnostics(uri, version)) == []


async def test_server_settings_arrive_by_did_change_configuration(tmp_path):
    async with lsp_session(jupyterlab_lsp(), server_command=spec()["argv"]) as session:
        uri = session.open(tmp_path / "train.ipynb", VIRTUAL_DOCUMENT)
        (diagnostic,) = await session.diagnostics(uri)
        assert diagnostic.severity == types.DiagnosticSeverity.Warning
        # what jupyterlab-lsp sends for serverSettings {"tfscope.severity": {"TFS001": "error"}}
        session.client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"tfscope": {"severity": {"TFS001": "error"}}})
        )
        regraded = await session.wait_for_diagnostics(
            uri, lambda found: [d.severity for d in found] == [types.DiagnosticSeverity.Error]
        )
        assert codes(regraded) == ["TFS001"]
