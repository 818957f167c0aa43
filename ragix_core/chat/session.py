"""One turn of a conversation: a question in a session, answered in a new thread, stored.

``run_turn`` is what ``ragix chat`` (both modes) and the benchmark call:

1. take the session's lock (another process answering in it makes us wait);
2. read the session's history (its answered threads) from the store;
3. open the run's context (config, profile, roles, tools, trace for this thread);
4. run the graph, storing each node's new messages as they appear;
5. store the final answer and its stop reason; Ctrl-C stores ``user_abort`` and re-raises.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

from ragix_core.core.events import EventBus

from .messages import ChatMessage, final_message, reasoning_steps, tool_messages
from .store import ChatStore

__all__ = ["TurnResult", "run_turn", "new_thread_id", "thread_view", "LOCK_TIMEOUT"]

LOCK_TIMEOUT = 600.0


def new_thread_id() -> str:
    return time.strftime("t%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


def thread_view(messages: List[ChatMessage]) -> Dict[str, Any]:
    """The thinking steps and tool calls of a thread, as ``--json`` and ``--show`` print them."""
    calls_by_id = {m.meta.get("tool_call_id"): m for m in tool_messages(messages)}
    reasoning = []
    for m in reasoning_steps(messages):
        step = {"step": m.meta.get("step"), "thinking": m.content, "action": m.meta.get("action"),
                "confidence": m.meta.get("confidence"), "missing_info": list(m.meta.get("missing_info") or [])}
        for key in ("tool_input", "forced_answer", "stop_reason", "error"):
            if m.meta.get(key):
                step[key] = m.meta[key]
        reasoning.append(step)
    tool_calls = [{"tool": m.meta.get("tool"), "input": m.meta.get("input"), "output": m.meta.get("output"),
                   "error": m.meta.get("error"), "duration": m.meta.get("duration"),
                   "step": next((r.meta.get("step") for r in reasoning_steps(messages)
                                 if r.id == m.meta.get("tool_call_id")), None)}
                  for m in calls_by_id.values()]
    final = final_message(messages)
    return {"reasoning": reasoning, "tool_calls": tool_calls,
            "citations": list(final.meta.get("citations") or []) if final else []}


@dataclass
class TurnResult:
    session_id: str
    thread_id: str
    question: str
    final_answer: str
    stop_reason: str
    messages: List[ChatMessage]
    usage: Dict[str, int] = field(default_factory=dict)
    wall_time: float = 0.0
    notes: List[str] = field(default_factory=list)
    trace_path: Optional[Path] = None

    @property
    def succeeded(self) -> bool:
        return self.stop_reason == "success"

    def to_dict(self) -> Dict[str, Any]:
        return {"session_id": self.session_id, "thread_id": self.thread_id, "question": self.question,
                "final_answer": self.final_answer, "stop_reason": self.stop_reason, **thread_view(self.messages),
                "usage": self.usage, "wall_time": round(self.wall_time, 3), "notes": self.notes,
                "trace_path": str(self.trace_path) if self.trace_path else None}


def run_turn(store: ChatStore, session_id: str, question: str, *, cwd: Path, config: Any, profile: Any,
             docs: Optional[str] = None, events: Optional[EventBus] = None, client_factory: Any = None,
             seed: Optional[int] = None, max_reasoning_steps: Optional[int] = None,
             lock_timeout: float = LOCK_TIMEOUT, on_wait: Optional[Callable[[], None]] = None,
             on_thread: Optional[Callable[[str], None]] = None) -> TurnResult:
    """Answer ``question`` in session ``session_id`` (created if new). Configuration problems raise
    (ValueError subclasses: ProfileError, ProviderError, StoreError) before the thread is stored."""
    from ragix_core.core.registry import get_engine
    from ragix_core.runtime.context import RunContext

    from .build import chat_setup
    from .graph import run_thread
    from .nodes import DEPS_KEY
    from .state import new_state

    from ragix_core.memory.traces import validate_session_id

    validate_session_id(session_id)  # InvalidSessionId (a ValueError) naming what is wrong
    question = question.strip()
    if not question:
        raise ValueError("the message is empty")
    if docs is not None and not Path(docs).expanduser().is_dir():
        raise ValueError(f"document directory not found or not a directory: {docs}")
    started = time.perf_counter()
    with store.lock(session_id, timeout=lock_timeout, on_wait=on_wait):
        session = store.ensure_session(session_id, docs=str(Path(docs).expanduser().resolve()) if docs else None)
        store.close_unfinished(session_id)
        history = store.history(session_id)
        thread_id = new_thread_id()
        ctx = RunContext.open(cwd=cwd, config=config, profile=profile, engine=get_engine("chat"), events=events,
                              client_factory=client_factory, session_id=thread_id, seed=seed)
        setup = None
        try:
            setup = chat_setup(ctx, docs=session.docs, max_reasoning_steps=max_reasoning_steps)
            state = new_state(session_id, thread_id, question, history)
            store.begin_thread(session_id, thread_id, question)
            store.add_messages(thread_id, state["messages"])
            if on_thread is not None:
                on_thread(thread_id)
            try:
                state = run_thread(state, {"configurable": {DEPS_KEY: setup.deps}}, bus=ctx.bus,
                                   event_session=thread_id,
                                   on_update=lambda _node, partial: store.add_messages(thread_id,
                                                                                       partial.get("messages", [])))
            except KeyboardInterrupt:
                store.finish_thread(thread_id, None, "user_abort", ctx.usage())
                raise
            final = final_message(state["messages"])
            answer = final.content if final else ""
            stop = str(final.meta.get("stop_reason")) if final else "no_answer"
            usage = ctx.usage()
            store.finish_thread(thread_id, answer, stop, usage)
        finally:
            if setup is not None:
                setup.close()
            ctx.close()
    return TurnResult(session_id=session_id, thread_id=thread_id, question=question, final_answer=answer,
                      stop_reason=stop, messages=list(state["messages"]), usage=usage,
                      wall_time=time.perf_counter() - started, notes=setup.notes, trace_path=ctx.trace_path)
