"""The tree's blocking model calls, awaited without holding up Ctrl-C.

``asyncio.to_thread`` runs a call in the loop's default executor, whose threads an interrupted
``asyncio.run`` waits for, and which the interpreter joins at exit: a Ctrl-C during a model call
that takes minutes (a busy server) left ``ragix run`` hanging that long after the user stopped it.
A daemon thread per call does the same work, and an interrupted run ends at once: the pending
call's thread is abandoned (its reply, when it comes, goes nowhere) and dies with the process.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
from typing import Any, Callable

__all__ = ["in_thread"]


async def in_thread(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``await in_thread(fn, ...)``: ``fn(...)`` in a daemon thread, as ``asyncio.to_thread`` would."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future = loop.create_future()
    context = contextvars.copy_context()  # as to_thread: the call sees the caller's context variables

    def settle(ok: bool, value: Any) -> None:
        if not future.done():
            (future.set_result if ok else future.set_exception)(value)

    def work() -> None:
        try:
            result = context.run(fn, *args, **kwargs)
        except BaseException as exc:  # handed to the awaiting coroutine, as to_thread does
            outcome = (False, exc)
        else:
            outcome = (True, result)
        try:
            loop.call_soon_threadsafe(settle, *outcome)
        except RuntimeError:
            pass  # the loop is closed: the run was interrupted and nobody waits for this reply

    threading.Thread(target=work, name="ragix-tree-call", daemon=True).start()
    return await future
