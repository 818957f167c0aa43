"""ReasoningLoop v1 (spec 002 §3.1): classify → plan → execute → verify → respond,
retrying the whole plan with feedback on failure.

It is the baseline engine: no REFLECT node, no experience search, a fixed
number of plan retries (``reasoning.graph.max_plan_retries``). It is a
``ReasoningGraph`` of the same nodes and node functions as the v30 graph, with
a RETRY node where the graph has REFLECT, so strategy comparisons measure the
control structure and nothing else, and it keeps the graph's contract: a node
failure or a named stop ends the run with its reason after one RESPOND pass.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

from ragix_core.core.events import EventBus
from ragix_core.core.types import ReasoningEvent, ReasoningState, ReflectionAttempt, TaskComplexity
from ragix_core.reasoning_v30.agent_fns import AgentFunctions
from ragix_core.reasoning_v30.build import make_emitter
from ragix_core.reasoning_v30.graph import BaseNode, ReasoningGraph
from ragix_core.reasoning_v30.nodes import (
    ClassifyNode,
    DirectExecNode,
    ExecuteNode,
    PlanNode,
    RespondNode,
    VerifyNode,
    utc_now,
)

__all__ = ["ReasoningLoop", "RetryNode", "loop_v1"]


class RetryNode(BaseNode):
    """v1's only recovery: count the failed attempt and plan again with its error as feedback
    (PLAN reads the attempts back into its prompt). No diagnosis, no tools, no experience."""

    name = "RETRY"

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        step = state.plan.get_current_step(state.current_step_index) if state.plan else None
        error = state.last_error or "the attempt failed"
        state.reflection_count += 1
        state.reflection_attempts.append(ReflectionAttempt(
            timestamp=utc_now(), failed_step=step.num if step else -1, error=error,
            diagnosis=f"Previous attempt {state.reflection_count} failed: {error}", new_plan_summary=""))
        state.final_answer = None  # a verified-then-failed answer must not survive into the retry
        return state, "PLAN"


class ReasoningLoop:
    def __init__(self, functions: AgentFunctions, *, max_retries: int = 1, events: Optional[EventBus] = None,
                 emit_event_fn: Optional[Callable[[ReasoningEvent], None]] = None, max_iterations: int = 50,
                 checkpoint_path: Optional[Any] = None):
        self.f = functions
        self.max_retries = max_retries
        self.events = events or EventBus()
        emit = emit_event_fn or make_emitter(self.events)
        budget = {c: max_retries for c in TaskComplexity}
        nodes = {
            "CLASSIFY": ClassifyNode(functions.classify),
            "DIRECT_EXEC": DirectExecNode(functions.answer),
            "PLAN": PlanNode(functions.generate_plan, functions.parse_plan, emit_event_fn=emit),
            "EXECUTE": ExecuteNode(functions.execute_step, budget, emit_event_fn=emit, recover_node="RETRY",
                                   exhausted_reason="max_retries", verify=tuple(TaskComplexity)),
            "RETRY": RetryNode(),
            "VERIFY": VerifyNode(functions.verify, emit_event_fn=emit, on_fail="RETRY",
                                 max_reflections_by_complexity=budget),
            "RESPOND": RespondNode(emit, compose_answer_fn=functions.compose),
        }
        self.graph = ReasoningGraph(nodes, start="CLASSIFY", end="END", events=self.events,
                                    max_iterations=max_iterations, checkpoint_path=checkpoint_path)

    @property
    def trace(self) -> List[str]:
        return self.graph.trace

    @classmethod
    def from_context(cls, ctx: Any) -> "ReasoningLoop":
        rc = ctx.config.reasoning
        return cls(AgentFunctions.from_context(ctx, with_experience=False), max_retries=rc.graph.max_plan_retries,
                   events=ctx.bus, emit_event_fn=make_emitter(ctx.bus, ctx.recall),
                   max_iterations=rc.graph.max_iterations, checkpoint_path=ctx.checkpoint_path)

    def run(self, state: ReasoningState) -> ReasoningState:
        return self.graph.run(state)

    def resume(self, checkpoint_path: Any) -> ReasoningState:
        """Continue from the graph's checkpoint (``ragix run --resume``)."""
        return self.graph.resume(checkpoint_path)


def loop_v1(ctx: Any) -> ReasoningLoop:
    """The registry's entry for ``loop_v1``."""
    return ReasoningLoop.from_context(ctx)
