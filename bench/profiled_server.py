"""The tfscope language server under cProfile in every thread (the event loop, analysis and jedi
workers); the merged profile is written to STATS_PATH when the server exits.

Usage: python bench/profiled_server.py STATS_PATH   (bench_server.py runs it)
"""

import atexit
import cProfile
import pstats
import sys
import threading

from tfscope.lsp.server import start_server

STATS_PATH = sys.argv[1]
profiles: list[cProfile.Profile] = []
_run = threading.Thread.run


def profiled_run(thread: threading.Thread) -> None:
    profile = cProfile.Profile()
    profiles.append(profile)
    profile.enable()
    try:
        _run(thread)
    finally:
        profile.disable()


def write_stats() -> None:
    main_profile.disable()
    for profile in profiles:  # a worker still idling in its queue is stopped where it is
        profile.disable()
    stats = pstats.Stats(main_profile)
    for profile in profiles:
        stats.add(profile)
    stats.dump_stats(STATS_PATH)


threading.Thread.run = profiled_run
atexit.register(write_stats)
main_profile = cProfile.Profile()
main_profile.enable()
start_server()
