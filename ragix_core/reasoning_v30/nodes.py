"""The spec's nodes (spec 000 §4), with spec 001's behaviours where 000 is silent.

Constructor signatures are those of the spec; every addition is a keyword
argument with a default. Node functions are injected: the LLM-backed ones are
built by ``ragix_core.reasoning_v30.build``; tests inject plain lambdas.

Events: a node given ``emit_event_fn`` reports a ``ReasoningEvent`` for every
plan, executed step (spec 001 §2.1.2), reflection, verification and response.
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.evidence.steps import found_nothing
from ragix_core.tools.policy import REFLECT_TOOLS

from .graph import BaseNode
from .respond import compose_from_steps, partial_results
from ragix_core.core.types import (
    Plan,
    PlanStep,
    ReasoningEvent,
    ReasoningState,
    ReflectionAttempt,
    StepStatus,
    TaskComplexity,
    ToolResult,
)

if TYPE_CHECKING:  # imported for annotations only: keeps `import nodes` free of sqlite
    from ragix_core.memory.experience import HybridExperienceCorpus

__all__ = [
    "ClassifyNode",
    "DirectExecNode",
    "PlanNode",
    "ExecuteNode",
    "ReflectNode",
    "VerifyNode",
    "RespondNode",
    "execute_step",
    "rests_on_no_evidence",
    "utc_now",
]

EmitFn = Callable[[ReasoningEvent], None]
# Stop reasons after which RESPOND writes the "Partial Results" summary (spec 001 Phase 5).
PARTIAL_REASONS = ("max_reflections", "max_iterations", "max_retries", "no_evidence")


def rests_on_no_evidence(state: ReasoningState) -> bool:
    """A goal that needed the tools (anything but BYPASS) whose run has no successful tool output:
    whatever answer it has was not read from the project, so the run cannot be a success."""
    return state.complexity != TaskComplexity.BYPASS and not any(
        s.status == StepStatus.SUCCESS for s in state.executed_steps)


def utc_now() -> str:
    return datetime.now(timezone.utc).replace(tzinfo=None).isoformat()


def _emit(fn: Optional[EmitFn], state: ReasoningState, event_type: str, **fields: Any) -> None:
    if fn is not None:
        fn(ReasoningEvent(timestamp=utc_now(), session_id=state.session_id, event_type=event_type,  # type: ignore[arg-type]
                          goal=state.goal, **fields))


class ClassifyNode(BaseNode):
    name = "CLASSIFY"

    def __init__(self, classify_fn: Callable[[str], TaskComplexity],
                 *, route_fn: Optional[Callable[[ReasoningState], str]] = None):
        """``route_fn(state) -> node`` replaces spec 000's routing (BYPASS/SIMPLE to DIRECT_EXEC,
        the rest to PLAN): the try-first route sends every tool goal to DIRECT_EXEC first."""
        self.classify_fn = classify_fn
        self.route_fn = route_fn

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        state.complexity = TaskComplexity.parse(self.classify_fn(state.goal))
        if self.route_fn is not None:
            return state, self.route_fn(state)
        # BYPASS is a route, not a stop: DIRECT_EXEC reports "success" once it has an
        # answer (the spec's own test expects that; see docs/DECISIONS.md).
        if state.complexity in (TaskComplexity.BYPASS, TaskComplexity.SIMPLE):
            return state, "DIRECT_EXEC"
        return state, "PLAN"


class DirectExecNode(BaseNode):
    """BYPASS → answer without tools; SIMPLE → the answer function may make one tool call."""

    name = "DIRECT_EXEC"

    def __init__(self, llm_answer_fn: Callable[[str], Dict[str, Any]], *, escalate_to: Optional[str] = None):
        """llm_answer_fn(goal) -> {"answer": str, "confidence": float (0..1)}; it may add "steps" (the
        tool calls it made), "meta" (merged into state.meta) and "escalate": a reason to hand the goal
        to ``escalate_to`` (PLAN, on the try-first route) instead of answering."""
        self.llm_answer_fn = llm_answer_fn
        self.escalate_to = escalate_to

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        res = self.llm_answer_fn(state.goal) or {}
        # Tool calls made while answering are evidence like any plan step.
        state.executed_steps.extend(s for s in res.get("steps") or [] if isinstance(s, PlanStep))
        if isinstance(res.get("meta"), dict):
            state.meta.update(res["meta"])
        if res.get("escalate") and self.escalate_to:
            state.meta["escalated"] = str(res["escalate"])
            return state, self.escalate_to
        state.final_answer = str(res.get("answer") or "")
        state.confidence = res.get("confidence")
        if not state.stop_reason:
            state.stop_reason = "success"
        return state, "RESPOND"


class PlanNode(BaseNode):
    name = "PLAN"

    def __init__(self, generate_plan_fn: Callable[[str, str], Dict], parse_plan_fn: Callable[[Dict, str], Plan],
                 *, emit_event_fn: Optional[EmitFn] = None):
        """generate_plan_fn(goal, reflection_context) -> raw LLM JSON/dict; parse_plan_fn(raw, goal) -> Plan"""
        self.generate_plan_fn = generate_plan_fn
        self.parse_plan_fn = parse_plan_fn
        self.emit_event_fn = emit_event_fn

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        reflection_context = ""
        if state.reflection_attempts:
            reflection_context = "\n\nPrevious attempts:\n" + "\n".join(
                f"- {att.diagnosis}" + (f"\n  revised strategy: {att.new_plan_summary}" if att.new_plan_summary else "")
                for att in state.reflection_attempts
            )
        raw = self.generate_plan_fn(state.goal, reflection_context)
        plan = self.parse_plan_fn(raw, state.goal)
        state.plan = plan
        state.current_step_index = 0
        state.last_error = None
        state.confidence = plan.confidence if plan is not None else None
        if plan is not None:
            _emit(self.emit_event_fn, state, "planning",
                  step_description=plan.objective,
                  context_used=reflection_context or None,
                  meta={"steps": [s.to_dict() for s in plan.steps], "confidence": plan.confidence})
        return state, "EXECUTE"


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
        returned = execute_step_fn(step, state)
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

    r = step.result
    _emit(emit_event_fn, state, "execution",
          step_num=step.num,
          step_description=step.description,
          tool=(step.tool_call.tool if step.tool_call else (r.tool if r else None)),
          # The command as planned (tool names, not the executor's absolute paths): this is what a
          # later planner reads back from experience, and what it must be able to reuse.
          tool_input=_planned_command(step) or (r.command if r else None),
          outcome_status="success" if step.status == StepStatus.SUCCESS else "failure",
          stdout=r.stdout if r else None,
          stderr=r.stderr if r else None,
          returncode=r.returncode if r else None,
          error=state.last_error if step.status == StepStatus.FAILED else None)
    return step


class ExecuteNode(BaseNode):
    name = "EXECUTE"

    def __init__(self, execute_step_fn: Callable[[PlanStep, ReasoningState], PlanStep],
                 max_reflections_by_complexity: Dict[TaskComplexity, int],
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
                _emit(self.emit_event_fn, state, "verification", outcome_status="failure", error=doubt,
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


class ReflectNode(BaseNode):
    name = "REFLECT"

    ALLOWED_TOOLS = list(REFLECT_TOOLS)
    # Spec 000 lists `pwd`, `ls -la` and the *.py files. `pwd` shows only a path the model
    # cannot use, `ls -la` adds timestamps that make prompts unrepeatable (and recorded
    # replies unreplayable), and a failure about a markdown or config file needs those files
    # in view too: so names only, every file type, sorted.
    CONTEXT_COMMANDS = [
        "ls -1p",
        "find . -maxdepth 3 -type f | sort | head -40",
    ]

    def __init__(self, llm_reflect_fn: Callable[[Dict], Dict], experience_corpus: "HybridExperienceCorpus",
                 shell_executor: Callable[[str], ToolResult],
                 *, emit_event_fn: Optional[EmitFn] = None,
                 allowed_tools: Optional[Sequence[str]] = None,
                 context_commands: Optional[Sequence[str]] = None,
                 max_context_chars: int = 2000,
                 top_k: int = 5,
                 next_node: str = "PLAN",
                 replan_fn: Optional[Callable[[ReasoningState, Dict[str, Any]], Optional[Plan]]] = None):
        """``next_node="PLAN"`` is spec 000's routing. Spec 001's (graph_v2) passes
        ``replan_fn`` (builds the new plan from the reflection) and ``next_node="EXECUTE"``."""
        self.llm_reflect_fn = llm_reflect_fn
        self.experience = experience_corpus
        self.shell = shell_executor
        self.emit_event_fn = emit_event_fn
        self.allowed_tools = list(allowed_tools) if allowed_tools is not None else list(self.ALLOWED_TOOLS)
        self.context_commands = list(context_commands) if context_commands is not None else list(self.CONTEXT_COMMANDS)
        self.max_context_chars = max_context_chars
        self.top_k = top_k
        self.next_node = next_node
        self.replan_fn = replan_fn

    def _safe_shell(self, command: str) -> ToolResult:
        # First filter only; the executor behind `shell` (the confined ToolBox with the
        # read-only profile) is what actually enforces read-only.
        words = (command or "").split()
        cmd = words[0] if words else ""
        if cmd not in self.allowed_tools:
            return ToolResult(tool=cmd, returncode=1, stderr=f"[BLOCKED: {cmd} not allowed]", refused=True)
        try:
            result = self.shell(command)
        except Exception as exc:
            return ToolResult(tool=cmd, returncode=-1, error=f"{type(exc).__name__}: {exc}")
        if not isinstance(result, ToolResult):
            return ToolResult(tool=cmd, returncode=-1, error="shell executor returned no result")
        return result

    def _file_context(self) -> str:
        parts: List[str] = []
        for cmd in self.context_commands:
            r = self._safe_shell(cmd)
            parts.append(f"$ {cmd}\n{r.stdout or r.stderr or r.error or ''}".rstrip())
        return bounded("\n".join(parts), self.max_context_chars)

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        if not state.plan:
            state.stop_reason = "no_plan"
            return state, "RESPOND"

        step = state.plan.get_current_step(state.current_step_index)
        if step is None and state.executed_steps:
            step = state.executed_steps[-1]  # a finished plan whose evidence was doubted: its last step
        file_context = self._file_context()
        query = f"goal: {state.goal}\nerror: {state.last_error}"
        try:
            experience_context = self.experience.search(query, top_k=self.top_k)
        except Exception as exc:  # memory is an aid; a broken index must not stop recovery
            experience_context = f"[experience search failed: {exc}]"

        payload = {
            "goal": state.goal,
            "failed_step_num": step.num if step else None,
            "failed_step_description": step.description if step else None,
            "error": state.last_error,
            "file_context": file_context,
            "experience_context": experience_context,
            "previous_attempts": [
                {"failed_step": a.failed_step, "error": a.error, "diagnosis": a.diagnosis,
                 "new_plan_summary": a.new_plan_summary}
                for a in state.reflection_attempts
            ],
        }

        res = self.llm_reflect_fn(payload) or {}
        diagnosis = str(res.get("diagnosis", "") or "")
        new_plan_summary = str(res.get("new_plan_summary", "") or "")

        error = state.last_error or ""
        state.reflection_count += 1
        state.reflection_attempts.append(ReflectionAttempt(
            timestamp=utc_now(),
            failed_step=step.num if step else -1,
            error=error,
            diagnosis=diagnosis,
            new_plan_summary=new_plan_summary,
            evidence=[str(e) for e in res.get("evidence") or []],
        ))
        _emit(self.emit_event_fn, state, "reflection",
              step_num=step.num if step else None,
              step_description=step.description if step else None,
              outcome_status="failure",
              error=error,
              llm_critique=(diagnosis + ("\n" + new_plan_summary if new_plan_summary else "")).strip() or None,
              context_used=experience_context[:500] if experience_context else None,
              meta={"evidence": state.reflection_attempts[-1].evidence})

        if self.replan_fn is not None:
            plan = self.replan_fn(state, payload | {"diagnosis": diagnosis, "new_plan_summary": new_plan_summary})
            state.plan = plan
            state.current_step_index = 0
            state.last_error = None
            if plan is None:
                state.stop_reason = "no_plan"
                return state, "RESPOND"
        return state, self.next_node


class VerifyNode(BaseNode):
    """Judges the answer against the executed steps' evidence.

    ``llm_verify_fn(state) -> {"answer": str, "confidence": float}`` as in the spec;
    it may add ``"verdict": "pass" | "fail"`` and ``"issues"``. A failed verdict
    goes to ``on_fail`` while the reflection budget allows (graph_v2 and v30 send
    it to REFLECT), else the run ends with ``verification_failed`` and the
    verifier's cautious answer.
    """

    name = "VERIFY"

    def __init__(self, llm_verify_fn: Callable[[ReasoningState], Dict[str, Any]],
                 *, emit_event_fn: Optional[EmitFn] = None, on_fail: Optional[str] = None,
                 max_reflections_by_complexity: Optional[Dict[TaskComplexity, int]] = None):
        self.llm_verify_fn = llm_verify_fn
        self.emit_event_fn = emit_event_fn
        self.on_fail = on_fail
        self.max_reflections = max_reflections_by_complexity or {}

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        res = self.llm_verify_fn(state) or {}
        verdict = str(res.get("verdict", "pass")).lower()
        state.final_answer = res.get("answer", state.final_answer)
        if res.get("confidence") is not None:
            state.confidence = res["confidence"]
        issues = res.get("issues") or ""
        _emit(self.emit_event_fn, state, "verification",
              outcome_status="success" if verdict != "fail" else "failure",
              llm_critique=str(issues) or None,
              meta={"verdict": verdict, "confidence": state.confidence})
        if verdict == "fail":
            state.last_error = f"verification failed: {issues}" if issues else "verification failed"
            budget = self.max_reflections.get(state.complexity, 0)
            if self.on_fail and state.reflection_count < budget:
                state.final_answer = None  # the next round's evidence gets a freshly composed answer
                return state, self.on_fail
            state.stop_reason = "verification_failed"
            return state, "RESPOND"
        state.stop_reason = state.stop_reason or "success"
        return state, "RESPOND"


class RespondNode(BaseNode):
    """Always leaves an answer.

    On success without an answer yet, ``compose_answer_fn(state) -> str`` (the LLM
    writer) composes one from the step outputs; without it, or if it fails, a
    plain summary of the outputs is used. On ``max_reflections`` /
    ``max_iterations`` — or any other stop without an answer — it writes the
    "Partial Results" summary of spec 001 Phase 5. A run that would end in
    success with no successful tool output behind a tool goal ends in
    ``no_evidence`` instead, with that summary: its answer was not read from
    the project.
    """

    name = "RESPOND"

    def __init__(self, emit_event_fn: Callable[[ReasoningEvent], None],
                 *, compose_answer_fn: Optional[Callable[[ReasoningState], str]] = None):
        self.emit_event = emit_event_fn
        self.compose_answer_fn = compose_answer_fn

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        if state.stop_reason in (None, "success") and rests_on_no_evidence(state):
            state.stop_reason = "no_evidence"
        if state.stop_reason in PARTIAL_REASONS or (state.stop_reason not in (None, "success") and not state.final_answer):
            state.final_answer = partial_results(state)
        elif not state.final_answer:
            state.final_answer = self._compose(state)
        state.stop_reason = state.stop_reason or "success"

        ev = ReasoningEvent(
            timestamp=utc_now(),
            session_id=state.session_id,
            event_type="respond",
            goal=state.goal,
            outcome_status=state.stop_reason,
            llm_critique=None,
            context_used=None,
            meta={"confidence": state.confidence, "complexity": state.complexity.value,
                  "reflections": state.reflection_count, "steps": len(state.executed_steps)},
        )
        if self.emit_event is not None:
            self.emit_event(ev)
        return state, "END"

    def _compose(self, state: ReasoningState) -> str:
        if self.compose_answer_fn is not None:
            try:
                answer = self.compose_answer_fn(state)
                if isinstance(answer, str) and answer.strip():
                    return answer
            except Exception as exc:
                state.meta["compose_error"] = f"{type(exc).__name__}: {exc}"
        return compose_from_steps(state)
