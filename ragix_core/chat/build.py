"""Building the chat agent from a run's ``RunContext``: its models, tools and limits.

Roles: the orchestrator is the ``planner`` role and the writer the ``worker``
role of ``llm:`` in ragix.yaml, so each can use its own backend. Tools follow the
agent profile: under ``safe`` no process starts (no repl, no operator); the repl
needs an OS sandbox (bubblewrap or Landlock) and is left out without one. Every
tool left out is named in ``ChatSetup.notes``.

``build`` is the engine registry's entry (``ragix run --strategy chat``, ``ragix
eval -s chat``): one question, answered in a fresh thread with no history.
"""

from __future__ import annotations

import math
import uuid
from dataclasses import dataclass, field
from typing import Any, List, Optional

from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, ToolCall, ToolResult

from .messages import final_message, reasoning_steps, tool_messages
from .nodes import ChatDeps
from .search import ProviderSettings, build_providers
from .tools import ChatTools, OperatorTool, ReplTool, SearchTool

__all__ = ["ChatSetup", "chat_setup", "build", "ChatEngine"]

ORCHESTRATOR_ROLE, WRITER_ROLE = "planner", "worker"


@dataclass
class ChatSetup:
    deps: ChatDeps
    notes: List[str] = field(default_factory=list)  # tools or sources left out, and why

    def close(self) -> None:
        """Release what the tools hold open (the docs index's SQLite connection)."""
        self.deps.tools.close()


def chat_setup(ctx: Any, *, docs: Optional[str] = None, max_reasoning_steps: Optional[int] = None) -> ChatSetup:
    """Deps for the chat nodes. Raises ``ProviderError`` (a ValueError) for a search source that cannot work."""
    from ragix_core.tools import Limits, ToolBox

    section = ctx.config.chat
    notes: List[str] = []
    tools: List[Any] = []
    wanted = list(section.tools)
    box = None
    if {"repl", "operator"} & set(wanted):
        if ctx.profile.tool_profile == "safe":
            notes.append(f"repl, operator: profile {ctx.profile.name!r} starts no process")
        else:
            limits = Limits(timeout=section.tool_timeout, cpu_seconds=max(1, math.ceil(section.tool_timeout)))
            box = ToolBox(ctx.cwd, profile="repl", events=ctx.bus, session_id=ctx.session_id, limits=limits,
                          previews=getattr(ctx, "previews", None))
    for name in wanted:
        if name == "repl" and box is not None:
            if box.sandbox.confining:
                tools.append(ReplTool(box))
            else:
                notes.append("repl: no OS sandbox here (bubblewrap or Landlock; run scripts/setup_system.sh)")
        elif name == "operator" and box is not None:
            tools.append(OperatorTool(box))
        elif name == "search":
            providers, left_out = build_providers(
                section.search.providers,
                ProviderSettings(docs=docs or section.search.docs, corpus=ctx.corpus, web=section.search.web,
                                 timeout=section.tool_timeout))
            notes.extend(f"search source {n}" for n in left_out)
            tools.append(SearchTool(providers, section.search.top_k, section.tool_timeout, notes=left_out,
                                    bus=ctx.bus, session_id=ctx.session_id))
    deps = ChatDeps(orchestrator=ctx.roles.get(ORCHESTRATOR_ROLE), writer=ctx.roles.get(WRITER_ROLE),
                    tools=ChatTools(tools), max_reasoning_steps=max_reasoning_steps or section.max_reasoning_steps,
                    history_turns=section.history_turns, decisions=section.decisions)
    return ChatSetup(deps, notes)


class ChatEngine:
    """The registry's view of the chat agent: a goal is one question in a new thread."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.trace: List[str] = []

    def run(self, state: ReasoningState) -> ReasoningState:
        from .graph import run_thread
        from .nodes import DEPS_KEY
        from .state import new_state

        try:
            setup = chat_setup(self.ctx)
        except ValueError as exc:  # a search provider that cannot be built: named, never raised from run()
            state.stop_reason, state.final_answer = "chat_setup_failed", f"The chat agent cannot start: {exc}"
            state.meta["error"] = str(exc)
            return state
        thread_id = "t-" + uuid.uuid4().hex[:12]
        chat = new_state(state.session_id, thread_id, state.goal)
        try:
            chat = run_thread(chat, {"configurable": {DEPS_KEY: setup.deps}}, bus=self.ctx.bus,
                              event_session=self.ctx.session_id, on_update=lambda node, _p: self.trace.append(node))
        finally:
            setup.close()
        final = final_message(chat["messages"])
        state.final_answer = final.content if final else None
        state.stop_reason = str(final.meta.get("stop_reason")) if final else "no_answer"
        for i, m in enumerate(tool_messages(chat["messages"]), 1):
            meta = m.meta
            result = ToolResult(tool=meta["tool"], returncode=1 if meta.get("error") else 0,
                                stdout=meta.get("output") or "", error=meta.get("error"), duration=meta.get("duration"))
            state.executed_steps.append(PlanStep(num=i, description=f"{meta['tool']} call",
                                                 tool_call=ToolCall(meta["tool"], dict(meta.get("input") or {})),
                                                 status=StepStatus.FAILED if meta.get("error") else StepStatus.SUCCESS,
                                                 result=result))
        state.meta["chat"] = {"thread_id": thread_id, "reasoning_steps": len(reasoning_steps(chat["messages"])),
                              "notes": setup.notes, "messages": [m.to_dict() for m in chat["messages"]]}
        return state


def build(ctx: Any) -> ChatEngine:
    return ChatEngine(ctx)
