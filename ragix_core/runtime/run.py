"""Run one goal end to end: the main job behind ``ragix run`` and ``ragix eval``.

``run_goal`` loads the configuration, picks the engine from the registry,
opens the run's context (profile, roles, tools, memory, traces), runs the
engine and returns everything a caller needs to report or audit the run.
Every strategy, the s0 baseline included, goes through this one path.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.config import RagixConfig, load_config
from ragix_core.core.events import Event, EventBus
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
             temperature: Optional[float] = None, meta: Optional[Dict[str, Any]] = None) -> RunResult:
    """Run ``goal`` in project directory ``cwd``. Configuration errors raise (ConfigError,
    ProfileError, ValueError); everything that happens during the run ends in ``state``.

    ``client_factory`` (settings -> LLMClient) replaces the real backends, for tests and
    replays; usage is still counted by the run's roles. ``temperature`` replaces every role's
    configured temperature; ``seed`` numbers the run's sampled calls (repeatable runs at
    temperature > 0, where the backend supports seeds). ``meta``: values the engine reads from the starting
    state's ``meta`` (e.g. ``{"tutor": {"accept": [...], "max_turns": 8}}`` for the proof game)."""
    cwd = Path(cwd).resolve()
    if not cwd.is_dir():
        raise ValueError(f"working directory does not exist or is not a directory: {cwd}")
    config = _apply_model_overrides(config or load_config(cwd=cwd), model, planner_model, temperature)
    name = resolve_strategy(strategy, config)
    spec = get_engine(name)
    ctx = RunContext.open(cwd=cwd, config=config, profile=get_profile(profile or config.profile), engine=spec,
                          corpus=corpus, events=events, client_factory=client_factory, session_id=session_id,
                          assume_yes=assume_yes, checkpoint_path=checkpoint_path, seed=seed)
    state = ReasoningState(goal=goal, session_id=ctx.session_id, meta=dict(meta or {}))
    state.meta["strategy"] = name
    state.meta["complexity_classified"] = spec.classifies
    t0 = time.perf_counter()
    trace: List[str] = []
    try:
        failure = ctx.mcp.failure if ctx.mcp is not None else None
        if failure is not None:  # a configured MCP server did not come up: the run's named stop
            state.stop_reason, state.last_error = failure.kind, str(failure)
            state.final_answer = f"No answer: the MCP server the run was configured with failed ({failure})."
        else:
            engine = build_engine(spec, ctx)
            state = engine.run(state)
            trace = list(engine.trace)
    finally:
        wall = time.perf_counter() - t0
        ctx.close()
    usage = ctx.usage()
    state.meta["usage"] = usage
    return RunResult(state=state, session_id=ctx.session_id, wall_time=wall, strategy=name,
                     trace_path=ctx.trace_path, events=ctx.events, usage=usage, node_trace=trace)
