"""Run one goal end to end: the main job behind ``ragix run`` and ``ragix eval``.

``run_goal`` loads the configuration, picks the engine from the registry,
opens the run's context (profile, roles, tools, memory, traces), runs the
engine and returns everything a caller needs to report or audit the run.
Every strategy, the s0 baseline included, goes through this one path, and so
does run control (issue 40): Ctrl-C ends any engine's run as ``user_abort``
with a partial answer (the graphs do it themselves, at the node they were in);
``resume_from`` continues a graph from its checkpoint; ``dry_run`` stops at the
first tool call with what it would run (tools/preview.py, runtime/run_control.py).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.config import RagixConfig, load_config
from ragix_core.core.events import RUN_END_ANSWER_CHARS, Event, EventBus, EventKind
from ragix_core.core.interrupt import USER_ABORT, finishing
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import ReasoningState
from ragix_core.profiles import get_profile
from ragix_core.runtime.context import RunContext, new_session_id
from ragix_core.core.registry import build_engine, engine_names, get_engine

__all__ = ["RunResult", "run_goal", "resolve_strategy", "new_session_id", "STRATEGY_ENV"]

STRATEGY_ENV = "RAGIX_REASONING_STRATEGY"


@dataclass
class RunResult:
    state: ReasoningState
    session_id: str
    wall_time: float
    strategy: str
    trace_path: Optional[Path] = None
    events: List[Event] = field(default_factory=list)
    usage: Dict[str, int] = field(default_factory=dict)
    node_trace: List[str] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        s = self.state
        return {
            "session_id": self.session_id,
            "strategy": self.strategy,
            "stop_reason": s.stop_reason,
            "complexity": s.complexity.value,
            "final_answer": s.final_answer,
            "confidence": s.confidence,
            "plan": s.plan.to_dict() if s.plan else None,
            "executed_steps": [st.to_dict() for st in s.executed_steps],
            "reflections": [a.to_dict() for a in s.reflection_attempts],
            "error": s.meta.get("error"),
            "usage": self.usage,
            "wall_time": round(self.wall_time, 3),
            "node_trace": self.node_trace,
            "trace_path": str(self.trace_path) if self.trace_path else None,
            **({"caveat": s.meta["caveat"]} if s.meta.get("caveat") else {}),
            **({"dry_run": s.meta["dry_run"]} if "dry_run" in s.meta else {}),
        }


def resolve_strategy(explicit: Optional[str], config: RagixConfig) -> str:
    """CLI flag → env RAGIX_REASONING_STRATEGY → config ``reasoning.strategy``."""
    env = os.environ.get(STRATEGY_ENV)
    value = explicit or env or config.reasoning.strategy
    if value not in engine_names():
        where = "--strategy" if explicit else STRATEGY_ENV if env else "config"
        raise ValueError(f"unknown strategy {value!r} (from {where}); allowed: {', '.join(engine_names())}")
    return value


def _apply_model_overrides(config: RagixConfig, model: Optional[str], planner_model: Optional[str],
                           temperature: Optional[float] = None) -> RagixConfig:
    """``--model`` is every role's model (a role's own ``model:`` included); ``--planner-model`` the
    planner's; ``temperature`` every role's sampling temperature."""
    if not model and not planner_model and temperature is None:
        return config
    data = config.model_dump()
    if temperature is not None:
        data["llm"]["default"]["temperature"] = temperature
        for role, override in data["llm"].items():
            if role != "default" and isinstance(override, dict):
                override["temperature"] = None
    if model:
        data["llm"]["default"]["model"] = model
        for role, override in data["llm"].items():
            if role != "default" and isinstance(override, dict):
                override["model"] = None
    if planner_model:
        data["llm"]["planner"]["model"] = planner_model
    out = RagixConfig.model_validate(data)
    out.source = config.source
    return out


def run_goal(goal: str, *, cwd: Path, config: Optional[RagixConfig] = None, strategy: Optional[str] = None,
             model: Optional[str] = None, planner_model: Optional[str] = None, corpus: Any = None,
             events: Optional[EventBus] = None, profile: Optional[str] = None, client_factory: Any = None,
             session_id: Optional[str] = None, assume_yes: bool = False,
             checkpoint_path: Optional[Path] = None, seed: Optional[int] = None,
             temperature: Optional[float] = None, meta: Optional[Dict[str, Any]] = None,
             dry_run: bool = False, resume_from: Optional[Path] = None) -> RunResult:
    """Run ``goal`` in project directory ``cwd``. Configuration errors raise (ConfigError,
    ProfileError, ValueError); everything that happens during the run ends in ``state``.

    ``client_factory`` (settings -> LLMClient) replaces the real backends, for tests and
    replays; usage is still counted by the run's roles. ``temperature`` replaces every role's
    configured temperature; ``seed`` numbers the run's sampled calls (repeatable runs at
    temperature > 0, where the backend supports seeds). ``meta``: values the engine reads from the starting
    state's ``meta`` (e.g. ``{"tutor": {"accept": [...], "max_turns": 8}}`` for the proof game).
    ``dry_run``: the run stops at its first tool call, nothing runs; ``state.meta["dry_run"]`` holds the
    commands it would run and the plan's. ``resume_from``: a graph's checkpoint to continue (with the
    checkpoint's session id as ``session_id``)."""
    cwd = Path(cwd).resolve()
    if not cwd.is_dir():
        raise ValueError(f"working directory does not exist or is not a directory: {cwd}")
    config = _apply_model_overrides(config or load_config(cwd=cwd), model, planner_model, temperature)
    name = resolve_strategy(strategy, config)
    spec = get_engine(name)
    ctx = RunContext.open(cwd=cwd, config=config, profile=get_profile(profile or config.profile), engine=spec,
                          corpus=corpus, events=events, client_factory=client_factory, session_id=session_id,
                          assume_yes=assume_yes, checkpoint_path=checkpoint_path, seed=seed, dry_run=dry_run)
    state = ReasoningState(goal=goal, session_id=ctx.session_id, meta=dict(meta or {}))
    state.meta["strategy"] = name
    state.meta["complexity_classified"] = spec.classifies
    if spec.resumable and checkpoint_path is not None:
        state.meta["resumable"] = True  # the partial answer of an interrupted run says how to resume it
    t0 = time.perf_counter()
    trace: List[str] = []
    try:
        failure = ctx.mcp.failure if ctx.mcp is not None else None
        if failure is not None:  # a configured MCP server did not come up: the run's named stop
            state.stop_reason, state.last_error = failure.kind, str(failure)
            state.final_answer = f"No answer: the MCP server the run was configured with failed ({failure})."
        elif dry_run and not spec.runs_commands:
            state.stop_reason = "dry_run"
            state.final_answer = (f"Dry run: the {name} engine runs no confined command ({spec.summary}); "
                                  "there is nothing to preview and nothing was run.")
        else:
            engine = build_engine(spec, ctx)
            try:
                state = engine.run(state) if resume_from is None else engine.resume(resume_from)
            except KeyboardInterrupt:  # an engine that is not a graph (the graphs end user_abort themselves)
                with finishing():
                    state = _ended_by_user(state, ctx)
            except StopRun as stop:  # a named stop an engine let out (a dry run's first tool call in the tutor)
                state.stop_reason, state.last_error = stop.reason, stop.message
            trace = list(engine.trace)
        if ctx.previews is not None:
            _dry_run_report(state, ctx)
    finally:
        wall = time.perf_counter() - t0
        ctx.close()
    usage = ctx.usage()
    state.meta["usage"] = usage
    return RunResult(state=state, session_id=ctx.session_id, wall_time=wall, strategy=name,
                     trace_path=ctx.trace_path, events=ctx.events, usage=usage, node_trace=trace)


def _ended_by_user(state: ReasoningState, ctx: RunContext) -> ReasoningState:
    """Ctrl-C in an engine that does not handle it: the named stop, what was found, a closed trace."""
    from ragix_core.evidence.answers import partial_results

    state.stop_reason = USER_ABORT
    state.last_error = "interrupted by the user (Ctrl-C)"
    if not state.final_answer:
        state.final_answer = partial_results(state)
    ctx.bus.publish(EventKind.RUN_END, ctx.session_id, stop_reason=USER_ABORT,
                    answer=bounded(str(state.final_answer or ""), RUN_END_ANSWER_CHARS))
    return state


def _dry_run_report(state: ReasoningState, ctx: RunContext) -> None:
    """What the dry run would have run: the command it stopped at and the plan's, each previewed."""
    from ragix_core.runtime.run_control import plan_previews

    previews = list(ctx.previews or [])
    if previews:
        state.stop_reason = "dry_run"
    state.meta["dry_run"] = {"commands": [p.to_dict() for p in previews],
                             "plan": plan_previews(state, ctx.toolbox, previews)}
