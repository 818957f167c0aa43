"""Run one goal end to end: the main job behind ``ragix run`` and ``ragix eval``.

``run_goal`` loads the configuration, applies the profile (models checked
before anything loads; tools, reflection and memory set from it), builds the
LLM roles, the confined tool boxes, the experience corpus and the trace
writer, runs the chosen strategy and returns everything a caller needs to
report or audit the run.
"""

from __future__ import annotations

import os
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from ragix_core.config import RagixConfig, load_config
from ragix_core.core.events import Event, EventBus, EventKind
from ragix_core.profiles import check_models, get_profile
from ragix_core.core.types import ReasoningState

__all__ = ["RunResult", "run_goal", "resolve_strategy", "STRATEGIES", "new_session_id"]

STRATEGIES = ("graph_v30", "graph_v2", "loop_v1")
STRATEGY_ENV = "RAGIX_REASONING_STRATEGY"
ROLES_USED = ("planner", "worker", "verifier")


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


def new_session_id() -> str:
    return time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


def resolve_strategy(explicit: Optional[str], config: RagixConfig) -> str:
    """CLI flag → env RAGIX_REASONING_STRATEGY → config ``reasoning.strategy``."""
    value = explicit or os.environ.get(STRATEGY_ENV) or config.reasoning.strategy
    if value not in STRATEGIES:
        raise ValueError(f"unknown strategy {value!r} (from {'--strategy' if explicit else STRATEGY_ENV if os.environ.get(STRATEGY_ENV) else 'config'}); "
                         f"allowed: {', '.join(STRATEGIES)}")
    return value


def _apply_model_overrides(config: RagixConfig, model: Optional[str], planner_model: Optional[str]) -> RagixConfig:
    if not model and not planner_model:
        return config
    data = config.model_dump()
    if model:
        data["llm"]["default"]["model"] = model
    if planner_model:
        data["llm"]["planner"]["model"] = planner_model
    out = RagixConfig.model_validate(data)
    out.source = config.source
    return out


def run_goal(goal: str, *, cwd: Path, config: Optional[RagixConfig] = None, strategy: Optional[str] = None,
             model: Optional[str] = None, planner_model: Optional[str] = None, corpus: Any = None,
             events: Optional[EventBus] = None, profile: Optional[str] = None, roles: Any = None,
             session_id: Optional[str] = None, assume_yes: bool = False,
             checkpoint_path: Optional[Path] = None) -> RunResult:
    """Run ``goal`` in project directory ``cwd``. Configuration errors raise (ConfigError,
    ProfileError, ValueError); everything that happens during the run ends in ``state``."""
    from ragix_core.llm.roles import Roles
    from ragix_core.memory.traces import TraceWriter
    from ragix_core.memory.experience import HybridExperienceCorpus
    from ragix_core.tools import ToolBox

    cwd = Path(cwd).resolve()
    if not cwd.is_dir():
        raise ValueError(f"working directory does not exist or is not a directory: {cwd}")
    config = config or load_config(cwd=cwd)
    config = _apply_model_overrides(config, model, planner_model)
    prof = get_profile(profile or config.profile)
    check_models(prof, config.llm, list(ROLES_USED))
    chosen = resolve_strategy(strategy, config)
    sid = session_id or new_session_id()

    bus = events or EventBus()
    collected: List[Event] = []
    unsubscribers = [bus.subscribe(collected.append)]
    trace_path = None
    tr = config.reasoning.traces
    if tr.enabled:
        trace_dir = Path(tr.path).expanduser()
        writer = TraceWriter(trace_dir if trace_dir.is_absolute() else cwd / trace_dir, sid, tr.max_per_session)
        unsubscribers.append(bus.subscribe(writer))
        trace_path = writer.path

    if corpus is None and prof.memory and config.reasoning.experience.enabled:
        corpus = HybridExperienceCorpus.from_config(config.reasoning.experience, cwd)
    if not prof.memory:
        corpus = None
    from ragix_core.memory.recall import SessionRecall

    recall = SessionRecall(corpus, sid) if corpus is not None else None
    roles = roles or Roles(config.llm, bus=bus, session_id=sid)
    toolbox = ToolBox(cwd, profile=prof.tool_profile, events=bus, session_id=sid, assume_yes=assume_yes)
    reflect_box = ToolBox(cwd, profile=prof.reflect_tool_profile, events=bus, session_id=sid)

    state = ReasoningState(goal=goal, session_id=sid)
    t0 = time.perf_counter()
    node_trace: List[str] = []
    try:
        if chosen == "loop_v1":
            from ragix_core.reasoning import ReasoningLoop

            loop = ReasoningLoop.from_config(config, roles=roles, toolbox=toolbox, corpus=corpus, events=bus)
            state = loop.run(state)
            node_trace = list(loop.trace)
        else:
            from ragix_core.reasoning_v30.agent_fns import AgentFunctions
            from ragix_core.reasoning_v30.build import build_graph

            rc = config.reasoning
            functions = AgentFunctions(
                planner=roles.get("planner"), worker=roles.get("worker"), verifier=roles.get("verifier"),
                toolbox=toolbox, experience=recall if prof.reflection == "full" else None,
                top_k=rc.experience.top_k, max_context_chars=rc.reflect.max_context_chars)
            reflect_shell = reflect_box.run_command if prof.reflection == "full" else _no_shell
            graph = build_graph(config, functions=functions, reflect_shell=reflect_shell, corpus=recall,
                                events=bus, strategy=chosen, checkpoint_path=checkpoint_path)
            state = graph.run(state, max_iterations=rc.graph.max_iterations)
            node_trace = list(graph.trace)
    finally:
        wall = time.perf_counter() - t0
        for unsubscribe in unsubscribers:
            unsubscribe()
    llm_calls = sum(1 for e in collected if e.kind == EventKind.LLM_CALL)
    total = roles.total()
    usage = {"llm_calls": llm_calls, "prompt_tokens": total.prompt_tokens,
             "completion_tokens": total.completion_tokens}
    state.meta["usage"] = usage
    return RunResult(state=state, session_id=sid, wall_time=wall, strategy=chosen, trace_path=trace_path,
                     events=collected, usage=usage, node_trace=node_trace)


def _no_shell(command: str) -> Any:
    from ragix_core.core.types import ToolResult

    return ToolResult(tool=(command.split() or [""])[0], returncode=126, refused=True,
                      error="refused: reflection is 'simple' under this profile (no commands)")
