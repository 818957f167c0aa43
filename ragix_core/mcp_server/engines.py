"""One function per engine, run in the request's thread: the same runtime entry points as the
CLI commands (``run_goal`` for run, reason, tutor and research; ``run_turn`` for chat), with the
launch's root, profile and configuration and the request's cancellation."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

from ragix_core.core.events import EventBus, EventKind

from .cancel import Cancellation
from .launch import Launch
from .reports import CommandRecord, RunReport, command_record, text_record

__all__ = ["run_engine", "chat_turn"]


def _commands(result: Any) -> List[CommandRecord]:
    """The steps' commands with their outputs; for engines without plan steps (the proof game,
    the tree), the commands their events show (the outputs are in the trace)."""
    steps = [s for s in result.state.executed_steps if s.result is not None]
    if steps:
        return [command_record(s.result, (s.tool_call.args.get("command") if s.tool_call else None)) for s in steps]
    return [CommandRecord(command=str(e.data.get("command") or ""), returncode=e.data.get("returncode"),
                          refused=bool(e.data.get("refused")), error=e.data.get("reason"))
            for e in result.events if e.kind == EventKind.TOOL_CALL]


def _details(strategy: str, state: Any) -> Dict[str, Any]:
    if strategy == "tutor":
        t = state.meta.get("tutor") or {}
        return {k: t.get(k) for k in ("won", "score", "turns", "accept", "graph_log")}
    if strategy == "research":
        items = state.meta.get("research_items") or []
        schema = (items[0].get("schema_object") if items else None) or {}
        return {"status": schema.get("status"), "mode": schema.get("mode"), "citations": schema.get("citations")}
    return {"complexity": state.complexity.value, "confidence": state.confidence, "error": state.meta.get("error")}


def run_engine(launch: Launch, goal: str, strategy: Optional[str], bus: EventBus, cancel: Cancellation,
               meta: Optional[Dict[str, Any]] = None) -> RunReport:
    """``strategy`` None: the configuration's (``run``). Configuration errors raise ValueError."""
    from ragix_core.runtime.run import run_goal

    result = run_goal(goal, cwd=launch.root, config=launch.config, strategy=strategy, events=bus,
                      profile=launch.profile.name, client_factory=cancel.client_factory, meta=meta)
    s = result.state
    if cancel.cancelled and s.stop_reason == "user_abort":
        # The engines end an interrupted run themselves (trace closed, partial answer); to the client
        # that cancelled, the request was cancelled.
        from .cancel import RunCancelled

        raise RunCancelled("the MCP request was cancelled")
    return RunReport(answer=s.final_answer or "", stop_reason=s.stop_reason or "unknown", caveat=s.meta.get("caveat"),
                     commands=_commands(result),
                     trace_path=str(result.trace_path) if result.trace_path else None, session_id=result.session_id,
                     strategy=result.strategy, usage=result.usage, details=_details(result.strategy, s))


def chat_turn(launch: Launch, message: str, session_id: str, bus: EventBus, cancel: Cancellation) -> RunReport:
    """One message in a stored chat session (created if new), as ``ragix chat --session``."""
    from ragix_core.chat.session import run_turn
    from ragix_core.chat.store import ChatStore

    store = ChatStore(launch.config.chat.store)
    turn = run_turn(store, session_id, message, cwd=launch.root, config=launch.config, profile=launch.profile,
                    events=bus, client_factory=cancel.client_factory)
    view = turn.to_dict()
    commands = [text_record(f"{c.get('tool')} {c.get('input')}", c.get("output"), c.get("error"))
                for c in view["tool_calls"]]
    return RunReport(answer=turn.final_answer, stop_reason=turn.stop_reason, commands=commands,
                     trace_path=view["trace_path"], session_id=turn.session_id, strategy="chat", usage=turn.usage,
                     details={"thread_id": turn.thread_id, "citations": view["citations"], "notes": turn.notes})
