"""Run a synchronous engine in a thread, forward its events as MCP progress, honour cancellation.

The engine publishes on its EventBus in its own thread (or its helpers' threads); a queue hands
those events to the request's task, which sends one progress notification per node, step, move
or tree node. If the request is cancelled, the run's model clients refuse their next call (see
cancel.py) and the thread ends on its own; it is never killed mid-command.
"""

from __future__ import annotations

import queue
import threading
from typing import Any, Callable, Dict

import anyio

from ragix_core.core.event_lines import event_line
from ragix_core.core.events import Event, EventBus, EventKind

from .cancel import Cancellation

__all__ = ["run_in_thread", "PROGRESS_KINDS"]

# What a client watching a long run wants to see: the engine moving on, not every model call.
PROGRESS_KINDS = {EventKind.NODE_ENTER, EventKind.STEP_EXECUTED, EventKind.TREE_NODE, EventKind.MOVE,
                  EventKind.VERDICT, EventKind.RESEARCH_SEARCH, EventKind.RESEARCH_AGENT, EventKind.TOOL_CALL}
POLL_SECONDS = 0.05


def progress_message(event: Event) -> str:
    line = event_line(event) if event.kind != EventKind.TREE_NODE else None
    if line:
        return line[:300]
    d = event.data
    label = d.get("node") or d.get("state") or d.get("agent") or d.get("command") or ""
    return f"{event.kind.value} {label}".strip()[:300]


async def run_in_thread(work: Callable[[EventBus, Cancellation], Dict[str, Any]], report: Any,
                        cancellation: Cancellation) -> Dict[str, Any]:
    """``work(bus, cancellation)`` in a thread; ``report(progress, message)`` awaited per event."""
    bus = EventBus()
    events: "queue.Queue[Event]" = queue.Queue()
    unsubscribe = bus.subscribe(lambda e: events.put(e) if e.kind in PROGRESS_KINDS else None)
    outcome: Dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = work(bus, cancellation)
        except BaseException as exc:  # handed to the request's task, which decides what the client sees
            outcome["error"] = exc

    thread = threading.Thread(target=target, name="ragix-mcp-run", daemon=True)
    thread.start()
    sent = 0
    try:
        while True:
            finished = not thread.is_alive()  # read before draining: no event published after is lost
            while True:
                try:
                    event = events.get_nowait()
                except queue.Empty:
                    break
                sent += 1
                await report(sent, progress_message(event))
            if finished:
                break
            await anyio.sleep(POLL_SECONDS)
    except BaseException:
        cancellation.cancel()  # the request is gone (cancelled, or its connection closed)
        raise
    finally:
        unsubscribe()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]
