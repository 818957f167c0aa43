"""One stream of typed events for every engine.

The graph, the LLM layer and the tool layer publish here; the CLI live view,
trace files and any later UI subscribe. Publishing with no subscriber costs one
attribute check, so events can stay on in production and in benchmarks.

Two ways to consume:
- ``bus.subscribe(callback)`` — called synchronously in the publishing thread;
  a callback that raises is unsubscribed and reported once on stderr, so a
  broken viewer can never stop a run.
- ``for event in bus.stream():`` — an iterator fed through a queue, for a
  consumer in another thread; ``bus.close()`` ends it.
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Dict, Iterator, List, Optional

__all__ = ["EventKind", "Event", "EventBus", "RUN_END_ANSWER_CHARS"]

# RUN_END carries the run's answer (cut to this), so a trace read back later shows what the run answered.
RUN_END_ANSWER_CHARS = 8000


class EventKind(str, Enum):
    RUN_START = "run_start"
    NODE_ENTER = "node_enter"
    NODE_EXIT = "node_exit"
    NODE_ERROR = "node_error"
    PLAN = "plan"
    STEP_EXECUTED = "step_executed"
    REFLECTION = "reflection"
    VERIFICATION = "verification"
    RESPOND = "respond"
    LLM_CALL = "llm_call"
    TOOL_CALL = "tool_call"
    CHECKPOINT = "checkpoint"
    TREE_NODE = "tree_node"  # a tree engine's node changed state (reasoning_slim)
    MOVE = "move"  # a proof-game move, as the player made it (reasoning_tutor)
    VERDICT = "verdict"  # the tutor's judgement of that move: status, reason, points, score
    RUN_END = "run_end"
    # the research engine (spec 004): an index search (the first one or a gap search), an agent's turn
    RESEARCH_SEARCH = "research_search"
    RESEARCH_AGENT = "research_agent"
    # the hierarchical pattern (collective/hierarchical.py): the master's split, a part begun or ended, the composition
    PART = "part"


@dataclass
class Event:
    kind: EventKind
    session_id: str
    data: Dict[str, Any] = field(default_factory=dict)
    ts: float = field(default_factory=time.time)

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind.value, "session_id": self.session_id, "ts": self.ts, "data": self.data}

    @classmethod
    def from_dict(cls, d: Dict[str, Any]) -> "Event":
        return cls(kind=EventKind(d["kind"]), session_id=d["session_id"], data=dict(d.get("data") or {}), ts=d["ts"])


_CLOSED = object()


class EventBus:
    def __init__(self) -> None:
        self._subscribers: List[Callable[[Event], None]] = []
        self._lock = threading.Lock()
        self._streams: List["queue.Queue[Any]"] = []
        self._scope: Optional[Dict[str, Any]] = None

    @property
    def active(self) -> bool:
        return bool(self._subscribers)

    def subscribe(self, callback: Callable[[Event], None]) -> Callable[[], None]:
        """Register ``callback``; returns a function that unsubscribes it."""
        with self._lock:
            self._subscribers = self._subscribers + [callback]

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = [s for s in self._subscribers if s is not callback]

        return unsubscribe

    def publish(self, kind: EventKind, session_id: str, **data: Any) -> None:
        subscribers = self._subscribers  # copy-on-write list: safe to iterate without the lock
        if not subscribers:
            return
        scope = self._scope
        event = Event(kind, session_id, {**data, **scope} if scope else data)
        for callback in subscribers:
            try:
                callback(event)
            except Exception as exc:  # a viewer must never break a run
                with self._lock:
                    self._subscribers = [s for s in self._subscribers if s is not callback]
                print(f"ragix: event subscriber {callback!r} failed and was removed: {exc!r}", file=sys.stderr)

    def tagged(self, **tags: Any) -> "EventBus":
        """A bus whose events are re-published on this one with ``tags`` added to their data
        (e.g. ``purpose="diagnosis"`` on REFLECT's own commands)."""
        child = EventBus()
        child.subscribe(lambda event: self.publish(event.kind, event.session_id, **{**event.data, **tags}))
        return child

    @contextmanager
    def scope(self, **tags: Any) -> Iterator["EventBus"]:
        """Every event published on this bus while the block runs gets ``tags`` in its data: a
        sub-run's events (a hierarchical worker's ``part=2``) stay nested under the run that started
        it, in one trace. For sub-runs that run one after another: the tags are the bus's, not a thread's."""
        previous = self._scope
        self._scope = {**(previous or {}), **tags}
        try:
            yield self
        finally:
            self._scope = previous

    def stream(self, maxsize: int = 10_000) -> Iterator[Event]:
        """Iterate over events published from now on until ``close()``."""
        q: "queue.Queue[Any]" = queue.Queue(maxsize=maxsize)
        self._streams = self._streams + [q]
        unsubscribe = self.subscribe(q.put)

        def gen() -> Iterator[Event]:
            try:
                while True:
                    item = q.get()
                    if item is _CLOSED:
                        return
                    yield item
            finally:
                unsubscribe()

        return gen()

    def close(self) -> None:
        """End every iterator returned by ``stream()``."""
        for q in self._streams:
            q.put(_CLOSED)
        self._streams = []
