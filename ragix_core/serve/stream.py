"""One run's events, kept and fanned out to every watcher.

The run publishes on its ``EventBus`` in the engine's thread; ``RunStream`` is a subscriber that
keeps the events (a watcher who arrives late, or reloads the page, sees the run from its start)
and wakes the watchers' asyncio loops. Watchers never block the run: waking a loop is a
``call_soon_threadsafe``, and a watcher only reads the list.
"""

from __future__ import annotations

import asyncio
import threading
from typing import AsyncIterator, List, Set, Tuple

from ragix_core.core.events import Event

__all__ = ["RunStream"]


class RunStream:
    def __init__(self, max_events: int = 5000) -> None:
        self.events: List[Event] = []
        self.closed = False
        self.max_events = max_events  # a runaway run cannot fill the server's memory
        self._lock = threading.Lock()
        self._waiters: Set[Tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()

    def __call__(self, event: Event) -> None:
        """The bus subscriber (engine thread)."""
        with self._lock:
            if len(self.events) < self.max_events:
                self.events.append(event)
        self._wake()

    def close(self) -> None:
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        with self._lock:
            waiters = list(self._waiters)
        for loop, flag in waiters:
            try:
                loop.call_soon_threadsafe(flag.set)
            except RuntimeError:  # that watcher's loop has ended
                pass

    async def follow(self, start: int = 0) -> AsyncIterator[List[Event]]:
        """Batches of new events, from index ``start``, until the run has ended and all were given."""
        loop = asyncio.get_running_loop()
        flag = asyncio.Event()
        waiter = (loop, flag)
        with self._lock:
            self._waiters.add(waiter)
        try:
            seen = start
            while True:
                flag.clear()
                closed = self.closed  # read before the events: a close after this still leaves them complete
                with self._lock:
                    batch = self.events[seen:]
                if batch:
                    seen += len(batch)
                    yield batch
                if closed:
                    return
                if not batch:
                    await flag.wait()
        finally:
            with self._lock:
                self._waiters.discard(waiter)
