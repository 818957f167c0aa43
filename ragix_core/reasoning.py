"""ReasoningLoop v1 (spec 002 §3.1): classify → plan → execute → verify → respond,
retrying the whole plan with feedback on failure.

It is the baseline engine: no REFLECT node, no experience search, a fixed
number of plan retries (``reasoning.graph.max_plan_retries``). It runs on the
same node functions, tool box and LLM roles as the graphs (planner plans,
worker materialises commands and writes the answer, verifier judges), so
strategy comparisons measure the control structure and nothing else.
"""

from __future__ import annotations

import time
import traceback
from typing import Any, Callable, List, Optional

from ragix_core.core.events import EventBus, EventKind
from ragix_core.reasoning_v30.agent_fns import AgentFunctions
from ragix_core.reasoning_v30.build import make_emitter
from ragix_core.core.stop import StopRun
from ragix_core.reasoning_v30.nodes import RespondNode, execute_step
from ragix_core.core.types import ReasoningEvent, ReasoningState, StepStatus, TaskComplexity

__all__ = ["ReasoningLoop"]


class ReasoningLoop:
    def __init__(self, functions: AgentFunctions, *, max_retries: int = 1, events: Optional[EventBus] = None,
                 emit_event_fn: Optional[Callable[[ReasoningEvent], None]] = None):
        self.f = functions
        self.max_retries = max_retries
        self.events = events or EventBus()
        self.emit = emit_event_fn or make_emitter(self.events)
        self.respond = RespondNode(self.emit, compose_answer_fn=functions.compose)
        self.trace: List[str] = []

    @classmethod
    def from_config(cls, config: Any, *, roles: Any, toolbox: Any, corpus: Any = None,
                    events: Optional[EventBus] = None) -> "ReasoningLoop":
        rc = config.reasoning
        functions = AgentFunctions(planner=roles.get("planner"), worker=roles.get("worker"),
                                   verifier=roles.get("verifier"), toolbox=toolbox, experience=None,
                                   max_context_chars=rc.reflect.max_context_chars)
        bus = events or EventBus()
        return cls(functions, max_retries=rc.graph.max_plan_retries, events=bus,
                   emit_event_fn=make_emitter(bus, corpus))

    def _phase(self, name: str, state: ReasoningState, fn: Callable[[], Any]) -> Any:
        """Run one phase with the same events and timing as a graph node."""
        self.trace.append(name)
        self.events.publish(EventKind.NODE_ENTER, state.session_id, node=name)
        t0 = time.perf_counter()
        try:
            return fn()
        finally:
            self.events.publish(EventKind.NODE_EXIT, state.session_id, node=name, seconds=time.perf_counter() - t0)

    def run(self, state: ReasoningState) -> ReasoningState:
        self.events.publish(EventKind.RUN_START, state.session_id, goal=state.goal, start="CLASSIFY")
        phase = "CLASSIFY"
        try:
            state.complexity = self._phase("CLASSIFY", state, lambda: self.f.classify(state.goal))
            if state.complexity in (TaskComplexity.BYPASS, TaskComplexity.SIMPLE):
                phase = "DIRECT_EXEC"
                res = self._phase(phase, state, lambda: self.f.answer(state.goal))
                state.final_answer, state.confidence = res.get("answer", ""), res.get("confidence")
                state.executed_steps.extend(res.get("steps") or [])
                state.stop_reason = "success"
            else:
                self._plan_loop(state)
        except StopRun as stop:
            state.stop_reason, state.last_error = stop.reason, stop.message
            state.meta["error"] = {"node": phase, "reason": stop.reason, "message": stop.message}
        except Exception as exc:  # same contract as the graph: no traceback escapes run()
            state.stop_reason = f"node_exception:{self.trace[-1] if self.trace else phase}"
            state.last_error = f"{type(exc).__name__}: {exc}"
            state.meta["error"] = {"node": self.trace[-1] if self.trace else phase, "message": state.last_error,
                                   "traceback": "".join(traceback.format_exception(type(exc), exc, exc.__traceback__, limit=8))}
        try:
            self._phase("RESPOND", state, lambda: self.respond.run(state))
        except Exception as exc:
            state.stop_reason = "node_exception:RESPOND"
            state.last_error = f"{type(exc).__name__}: {exc}"
        self.events.publish(EventKind.RUN_END, state.session_id, stop_reason=state.stop_reason)
        return state

    def _plan_loop(self, state: ReasoningState) -> None:
        feedback = ""
        for attempt in range(self.max_retries + 1):
            raw = self._phase("PLAN", state, lambda: self.f.generate_plan(state.goal, feedback))
            state.plan = self.f.parse_plan(raw, state.goal)
            state.current_step_index = 0
            state.last_error = None
            failed = None
            for step in state.plan.steps:
                self._phase("EXECUTE", state, lambda s=step: execute_step(self.f.execute_step, s, state, self.emit))
                state.executed_steps.append(step)
                if step.status == StepStatus.FAILED:
                    failed = step
                    break
                state.current_step_index += 1
            if failed is None:
                verdict = self._phase("VERIFY", state, lambda: self.f.verify(state))
                state.final_answer = verdict.get("answer") or state.final_answer
                state.confidence = verdict.get("confidence", state.confidence)
                if verdict.get("verdict") != "fail":
                    state.stop_reason = "success"
                    return
                state.last_error = f"verification failed: {verdict.get('issues') or ''}".strip()
                state.final_answer = None
            if attempt < self.max_retries:
                state.reflection_count += 1  # a retry is v1's only form of recovery; counted like a reflection
                feedback = f"\n\nPrevious attempt {attempt + 1} failed: {state.last_error}"
        state.stop_reason = "max_retries"
