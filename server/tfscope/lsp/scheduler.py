"""When analyses run: at once, one per target at a time, latest wins.

An edit is analysed as soon as it arrives; no delay is added. Edits that arrive while their
target is being analysed are coalesced: when that analysis ends, one more runs on the newest
text, however many edits came meanwhile. A result is delivered only if it is still current.
"""

from __future__ import annotations

import logging
from typing import Awaitable, Callable, Generic, TypeVar

logger = logging.getLogger("tfscope.lsp")

R = TypeVar("R")


class Scheduler(Generic[R]):
    def __init__(
        self,
        analyse: Callable[[str], Awaitable[R | None]],
        deliver: Callable[[R], bool],
        spawn: Callable[[Awaitable], object],
    ) -> None:
        """``analyse(key)`` analyses the target's current text; ``deliver(result)`` keeps and
        publishes a result, returning False if it was stale (then the target runs again)."""
        self._analyse = analyse
        self._deliver = deliver
        self._spawn = spawn
        self._running: set[str] = set()
        self._again: set[str] = set()  # changed while running: one more run when it ends

    def schedule(self, key: str) -> None:
        if key in self._running:
            self._again.add(key)
        else:
            self._start(key)

    def is_busy(self, key: str) -> bool:
        return key in self._running

    def cancel(self, key: str) -> None:
        """The target closed: a run in progress finishes, but none follows it."""
        self._again.discard(key)

    def _start(self, key: str) -> None:
        self._running.add(key)
        self._again.discard(key)  # this run reads the newest text
        self._spawn(self._run(key))

    async def _run(self, key: str) -> None:
        result = None
        try:
            result = await self._analyse(key)
        except Exception:
            logger.exception("scheduling the analysis of %s failed", key)
        finally:
            self._running.discard(key)
        delivered = result is not None and self._deliver(result)
        if key in self._again:
            if delivered:  # asked again for the text it just analysed (a pull, a waiting request)
                self._again.discard(key)
            else:
                self._start(key)
