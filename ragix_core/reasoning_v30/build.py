"""Wiring: LLM functions, tools and the experience corpus into the spec's nodes.

``build_graph`` is the one place where a configured graph is assembled, for
both graph strategies:
- ``graph_v30`` (spec 000): REFLECT hands a diagnosis to PLAN, which replans;
- ``graph_v2`` (spec 001): REFLECT produces the new plan itself and returns to
  EXECUTE. Both are built from the same node functions — no second engine.

``graph_v30(ctx)`` / ``graph_v2(ctx)`` are the registry's entries: they build the
graph from a run's ``RunContext``.
"""

from __future__ import annotations

import os
from typing import Any, Callable, Dict, Optional

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.types import Plan, ReasoningEvent, ReasoningState, TaskComplexity

from .agent_fns import AgentFunctions
from .classify_rules import several_asks
from .graph import ReasoningGraph
from .nodes import ClassifyNode, DirectExecNode, ExecuteNode, PlanNode, ReflectNode, RespondNode, VerifyNode

__all__ = ["build_graph", "make_emitter", "graph_v30", "graph_v2", "GRAPH_STRATEGIES"]

GRAPH_STRATEGIES = ("graph_v30", "graph_v2")  # the two wirings build_graph knows

_EVENT_KINDS = {
    "planning": EventKind.PLAN,
    "execution": EventKind.STEP_EXECUTED,
    "reflection": EventKind.REFLECTION,
    "verification": EventKind.VERIFICATION,
    "respond": EventKind.RESPOND,
}


def make_emitter(events: EventBus, corpus: Any = None) -> Callable[[ReasoningEvent], None]:
    """One sink for ReasoningEvents: the experience corpus (when memory is on) and the event stream."""

    def emit(event: ReasoningEvent) -> None:
        if corpus is not None:
            corpus.append(event)  # never raises: a full disk is reported and the run goes on
        events.publish(_EVENT_KINDS[event.event_type], event.session_id, event=event.to_dict())

    return emit


def build_graph(config: Any, *, functions: AgentFunctions, reflect_shell: Callable[[str], Any],
                corpus: Any, events: EventBus, strategy: str = "graph_v30",
                checkpoint_path: Optional[os.PathLike | str] = None) -> ReasoningGraph:
    """Assemble the graph for ``strategy`` from ``config`` (a RagixConfig) and the run's functions."""
    if strategy not in GRAPH_STRATEGIES:
        raise ValueError(f"unknown graph strategy {strategy!r}; allowed: {', '.join(GRAPH_STRATEGIES)}")
    rc = config.reasoning
    budget = rc.max_reflections_by_complexity()
    emit = make_emitter(events, corpus)

    replan_fn: Optional[Callable[[ReasoningState, Dict[str, Any]], Optional[Plan]]] = None
    reflect_next = "PLAN"
    if strategy == "graph_v2":
        reflect_next = "EXECUTE"

        def replan_fn(state: ReasoningState, reflection: Dict[str, Any]) -> Optional[Plan]:
            context = (f"\n\nDiagnosis of the failure: {reflection.get('diagnosis', '')}"
                       f"\nRevised strategy: {reflection.get('new_plan_summary', '')}")
            return functions.parse_plan(functions.generate_plan(state.goal, context), state.goal)

    try_first = rc.routing == "try_first"
    functions.may_escalate = try_first
    functions.plan_after_failure = rc.plan_after_failure
    nodes = {
        "CLASSIFY": ClassifyNode(functions.classify_to_try if try_first else functions.classify,
                                 route_fn=try_first_route if try_first else None),
        "DIRECT_EXEC": DirectExecNode(functions.answer, escalate_to="PLAN" if try_first else None, emit_event_fn=emit),
        "PLAN": PlanNode(functions.generate_plan, functions.parse_plan, emit_event_fn=emit),
        "EXECUTE": ExecuteNode(functions.execute_step, budget, emit_event_fn=emit, doubt_fn=functions.doubt_plan),
        "REFLECT": ReflectNode(
            functions.reflect, _NoCorpus() if corpus is None else corpus, reflect_shell,
            emit_event_fn=emit,
            allowed_tools=rc.reflect.allowed_tools,
            max_context_chars=rc.reflect.max_context_chars,
            top_k=rc.experience.top_k,
            context_commands=ReflectNode.CONTEXT_COMMANDS[: max(rc.reflect.max_commands, 0)] if rc.reflect.use_shell else [],
            next_node=reflect_next,
            replan_fn=replan_fn,
        ),
        "VERIFY": VerifyNode(functions.verify, emit_event_fn=emit, on_fail="REFLECT",
                             max_reflections_by_complexity=budget),
        "RESPOND": RespondNode(emit, compose_answer_fn=functions.compose),
    }
    return ReasoningGraph(nodes, start="CLASSIFY", end="END", events=events, checkpoint_path=checkpoint_path,
                          max_iterations=rc.graph.max_iterations)


def try_first_route(state: ReasoningState) -> str:
    """ADaPT's order: a tool goal tries the main path first (DIRECT_EXEC escalates to PLAN when it
    finds nothing); a goal that asks several things plans at once; BYPASS answers without tools."""
    if state.complexity != TaskComplexity.BYPASS and several_asks(state.goal):
        return "PLAN"
    return "DIRECT_EXEC"


def _from_context(ctx: Any, strategy: str) -> ReasoningGraph:
    return build_graph(ctx.config, functions=AgentFunctions.from_context(ctx), reflect_shell=ctx.reflect_shell,
                       corpus=ctx.recall, events=ctx.bus, strategy=strategy, checkpoint_path=ctx.checkpoint_path)


def graph_v30(ctx: Any) -> ReasoningGraph:
    return _from_context(ctx, "graph_v30")


def graph_v2(ctx: Any) -> ReasoningGraph:
    return _from_context(ctx, "graph_v2")


class _NoCorpus:
    """Memory off (profile `safe`, or `experience.enabled: false`): nothing to recall."""

    def search(self, query: str, top_k: int = 5) -> str:
        return ""

    def append(self, event: ReasoningEvent) -> bool:
        return True

