"""The real tfscope server, except that documents named ``slow*.py`` take until a release file
exists (at most a minute) to analyse: shows whether one slow document holds up the others, and
what is analysed meanwhile. Each analysis of a slow document appends the last line of the text
it analysed to RELEASE_PATH.log when it starts.

Usage: python tests/lsp/slow_server.py RELEASE_PATH
"""

import os
import sys
import time

from tfscope import engine
from tfscope.lsp.server import start_server

RELEASE = sys.argv[1]
_analyze = engine.analyze


def slow_analyze(source, *args, **kwargs):
    if source.path and os.path.basename(source.path).startswith("slow"):
        with open(RELEASE + ".log", "a", encoding="utf-8") as log:
            log.write(source.text.rstrip("\n").rpartition("\n")[2] + "\n")
        deadline = time.monotonic() + 60
        while not os.path.exists(RELEASE) and time.monotonic() < deadline:
            time.sleep(0.02)
    return _analyze(source, *args, **kwargs)


engine.analyze = slow_analyze
start_server()
