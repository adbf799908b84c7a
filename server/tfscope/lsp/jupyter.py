"""The language server spec jupyter-lsp (JupyterLab's LSP server extension) finds through the
``jupyter_lsp_spec_v1`` entry point: with tfscope installed beside JupyterLab, it starts
``python -m tfscope serve`` with the Python that runs Jupyter, for Python notebooks and files.

jupyterlab-lsp sends a notebook as one text document, its code cells joined by blank lines
with IPython syntax rewritten as Python, and maps positions back to the cells itself.
"""

from __future__ import annotations

import sys
from typing import Any

SPEC_KEY = "tfscope"
SPEC_VERSION = 2  # jupyter-lsp's spec schema version


def spec(manager: Any) -> dict[str, dict]:
    """Called by jupyter-lsp with its LanguageServerManager (unused: nothing to look up)."""
    return {
        SPEC_KEY: {
            "argv": [sys.executable, "-m", "tfscope", "serve"],
            "languages": ["python"],
            "mime_types": ["text/python", "text/x-ipython"],
            "version": SPEC_VERSION,
            "display_name": "tfscope",
            # the server reads the text from the client, never the file: no shadow copies on disk
            "requires_documents_on_disk": False,
            "install": {"pip": "pip install tfscope"},
            "env": {"PYTHONUNBUFFERED": "1"},
        }
    }
