"""EXECUTE: one plan step at a time, every failure captured as data (spec 000 §4, spec 001 §2.1.2).

When every search of a finished plan found nothing, ragix first reads the small files named in
the goal or the searches (steps it adds, no reflection spent); if the evidence is still doubted,
the plan goes to REFLECT like a failed step, whatever its complexity. See ``ExecuteNode``.
"""

from __future__ import annotations

from typing import Callable, Dict, Optional, Sequence, Tuple

from ragix_core.core.stop import StopRun
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus, TaskComplexity, ToolResult
from ragix_core.evidence.steps import found_nothing

from .emit import EmitFn, emit_event
from .graph import BaseNode
from .node_calls import call, positional_arity

__all__ = ["ExecuteNode", "execute_step"]


def _planned_command(step: PlanStep) -> Optional[str]:
    if step.tool_call is None:
        return None
    command = step.tool_call.args.get("command")
    return str(command) if command else (str(step.tool_call.args) if step.tool_call.args else None)


def execute_step(execute_step_fn: Callable[[PlanStep, ReasoningState], PlanStep], step: PlanStep,
                 state: ReasoningState, emit_event_fn: Optional[EmitFn] = None) -> PlanStep:
    """Run one step, capturing every failure as data (spec 001 §2.1.2)."""
    original = step
    step.status = StepStatus.RUNNING
    try:
        if positional_arity(execute_step_fn) == 1:  # spec 002 §4.4: execute_step_fn(step) -> ToolResult
            returned = call(execute_step_fn, step)
        else:
            returned = call(execute_step_fn, step, state)
        if isinstance(returned, ToolResult):
            step.result, returned = returned, step
        if not isinstance(returned, PlanStep):
            raise TypeError(f"execute_step_fn returned {type(returned).__name__}, expected PlanStep")
        step = returned
        if step.status in (StepStatus.RUNNING, StepStatus.PENDING):
            # The function left the verdict to us: judge from the tool result.
            step.status = StepStatus.SUCCESS if (step.result is None or step.result.ok) else StepStatus.FAILED
        if step.status == StepStatus.FAILED and not state.last_error:
            r = step.result
            detail = (r.error or r.stderr or r.stdout or "").strip()[:500] if r else "no result"
            state.last_error = f"Step {step.num} failed (rc={r.returncode if r else None}): {detail}"
    except StopRun:
        raise  # a named stop (e.g. the model is unreachable) ends the run, it is not a step failure
    except Exception as exc:
        step = original
        step.status = StepStatus.FAILED
        tool = step.tool_call.tool if step.tool_call else "none"
        step.result = ToolResult(tool=tool, returncode=-1, error=f"{type(exc).__name__}: {exc}")
        state.last_error = f"Step {step.num} exception: {type(exc).__name__}: {exc}"

    emit_step(emit_event_fn, state, step)
    return step


def emit_step(emit_event_fn: Optional[EmitFn], state: ReasoningState, step: PlanStep) -> None:
    """The step's "execution" event: its command as planned, its outputs and its verdict."""
    r = step.result
    emit_event(emit_event_fn, state, "execution",
               step_num=step.num,
               step_description=step.description,
               tool=(step.tool_call.tool if step.tool_call else (r.tool if r else None)),
               # The command as planned (tool names, not the executor's absolute paths): this is what a
               # later planner reads back from experience, and what it must be able to reuse.
               tool_input=_planned_command(step) or (r.command if r else None),
               # A skipped step did not fail: memory and the live view must not learn that its command fails.
               outcome_status="success" if step.status == StepStatus.SUCCESS else
               "skipped" if step.status == StepStatus.SKIPPED else "failure",
               stdout=r.stdout if r else None,
               stderr=r.stderr if r else None,
               returncode=r.returncode if r else None,
               error=state.last_error if step.status == StepStatus.FAILED else _skipped_why(step))


def _skipped_why(step: PlanStep) -> Optional[str]:
    """For a step set aside (a refused rework of evidence the plan already has, or a command that
    already ran), the refusal and the reason, so that the trace says why it did not count."""
    r = step.result
    if step.status != StepStatus.SKIPPED:
        return None
    why = step.tool_call.args.get("aside") if step.tool_call else None
    refusal = (r.error or r.stderr or "").strip()[:300] if r is not None else ""
    return "; ".join(filter(None, [refusal, why])) or None


class ExecuteNode(BaseNode):
    name = "EXECUTE"

    def __init__(self, execute_step_fn: Callable[[PlanStep, ReasoningState], PlanStep],
                 max_reflections_by_complexity: Optional[Dict[TaskComplexity, int]] = None,
                 *, emit_event_fn: Optional[EmitFn] = None, recover_node: str = "REFLECT",
                 exhausted_reason: str = "max_reflections",
                 verify: Sequence[TaskComplexity] = (TaskComplexity.COMPLEX,),
                 doubt_fn: Optional[Callable[[ReasoningState], Optional[str]]] = None):
        """A failed step goes to ``recover_node`` while the budget lasts, else the run stops with
        ``exhausted_reason``; a finished plan goes to VERIFY for the complexities in ``verify``.
        The defaults are spec 000's; ReasoningLoop v1 retries its plan and verifies every plan.
        ``doubt_fn(state)`` names a reason to distrust a finished plan's evidence (None: no doubt);
        a doubted plan goes to ``recover_node`` like a failed step, whatever its complexity, while
        the reflection budget lasts. If the second look that follows fails a step with no budget
        left, having found nothing new, the doubted plan's evidence stands and the run finishes as
        that plan would have (doubting was a check, not a failure)."""
        self.execute_step_fn = execute_step_fn
        if max_reflections_by_complexity is None:  # spec 002 §4.4 gives none: spec 000 §6's defaults
            from ragix_core.config.reasoning import MaxReflections

            max_reflections_by_complexity = MaxReflections().by_complexity()
        self.max_reflections = max_reflections_by_complexity
        self.emit_event_fn = emit_event_fn
        self.recover_node = recover_node
        self.exhausted_reason = exhausted_reason
        self.verify = tuple(verify)
        self.doubt_fn = doubt_fn

    @staticmethod
    def _doubted_evidence_stands(state: ReasoningState) -> bool:
        """A plan finished and was only doubted, and every step of the second look either failed or
        found nothing too: the second look added no evidence, so it cannot have disproved the first.
        Measured: a true absence ("no file mentions redis") ended as Partial Results because the
        replan after the doubt ran a command that failed."""
        start = state.meta.get("doubted_after_step")
        if not isinstance(start, int):
            return False
        later = state.executed_steps[start:]
        return all(s.status != StepStatus.SUCCESS or found_nothing(s) for s in later)

    def _finished(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        if self.doubt_fn is not None and state.reflection_count < self.max_reflections.get(state.complexity, 0):
            doubt = self.doubt_fn(state)
            if doubt:
                state.last_error = doubt
                state.meta["doubted_after_step"] = len(state.executed_steps)
                # A check of the evidence, not of an answer: recorded as a failed verification, no model.
                emit_event(self.emit_event_fn, state, "verification", outcome_status="failure", error=doubt,
                           meta={"verdict": "fail", "checked_by": "evidence"})
                return state, self.recover_node
        if state.complexity in self.verify:
            return state, "VERIFY"
        state.stop_reason = "success"
        return state, "RESPOND"

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        if state.plan is None:
            state.stop_reason = "no_plan"
            return state, "RESPOND"

        step = state.plan.get_current_step(state.current_step_index)
        if step is None:
            return self._finished(state)

        step = execute_step(self.execute_step_fn, step, state, self.emit_event_fn)
        state.executed_steps.append(step)

        if step.status == StepStatus.FAILED:
            max_refl = self.max_reflections.get(state.complexity, 0)
            if state.reflection_count < max_refl:
                return state, self.recover_node
            if self._doubted_evidence_stands(state):
                state.meta["doubted_evidence_stands"] = step.num
                return self._finished(state)
            state.stop_reason = self.exhausted_reason
            return state, "RESPOND"

        state.current_step_index += 1
        if state.plan.is_complete():
            return self._finished(state)
        return state, "EXECUTE"
