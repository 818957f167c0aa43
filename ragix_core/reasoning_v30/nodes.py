"""The spec's nodes (spec 000 §4), with spec 001's behaviours where 000 is silent.

Constructor signatures are those of the spec; every addition is a keyword
argument with a default. Node functions are injected: the LLM-backed ones are
built by ``ragix_core.reasoning_v30.build``; tests inject plain lambdas.

Events: a node given ``emit_event_fn`` reports a ``ReasoningEvent`` for every
plan, executed step (spec 001 §2.1.2), reflection, verification and response.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple

from ragix_core.core.text import bounded
from ragix_core.tools.mcp_tools import server_failure
from ragix_core.tools.policy import REFLECT_TOOLS

from .emit import EmitFn, emit_event, utc_now
from .execute import ExecuteNode, emit_step, execute_step
from .graph import BaseNode
from .node_calls import call, positional_arity, resolve, takes_state
from ragix_core.evidence.answers import REPORT_NOT_ANSWER, compose_from_steps, partial_results
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

# Stop reasons after which RESPOND writes the "Partial Results" summary (spec 001 Phase 5).
PARTIAL_REASONS = ("max_reflections", "max_iterations", "max_retries", "no_evidence")
# Stops of a run that found no answer: after an MCP server failure, the run stops with the failure's name.
NO_ANSWER_REASONS = PARTIAL_REASONS + ("no_new_plan", "no_plan")


def rests_on_no_evidence(state: ReasoningState) -> bool:
    """A goal that needed the tools (anything but BYPASS) whose run has no successful tool output:
    whatever answer it has was not read from the project, so the run cannot be a success."""
    return state.complexity != TaskComplexity.BYPASS and not any(
        s.status == StepStatus.SUCCESS for s in state.executed_steps)


class ClassifyNode(BaseNode):
    name = "CLASSIFY"

    def __init__(self, classify_fn: Callable[[str], TaskComplexity],
                 *, route_fn: Optional[Callable[[ReasoningState], str]] = None):
        """``route_fn(state) -> node`` replaces spec 000's routing (BYPASS/SIMPLE to DIRECT_EXEC,
        the rest to PLAN): the try-first route sends every tool goal to DIRECT_EXEC first."""
        self.classify_fn = classify_fn
        self.route_fn = route_fn

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        state.complexity = TaskComplexity.parse(call(self.classify_fn, state.goal))
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

    def __init__(self, llm_answer_fn: Callable[[str], Dict[str, Any]], *, escalate_to: Optional[str] = None,
                 emit_event_fn: Optional[Callable[[ReasoningEvent], None]] = None):
        """llm_answer_fn(goal) -> {"answer": str, "confidence": float (0..1)}; it may add "steps" (the
        tool calls it made), "meta" (merged into state.meta) and "escalate": a reason to hand the goal
        to ``escalate_to`` (PLAN, on the try-first route) instead of answering, with "complexity",
        the label it plans under; and "stop_reason", a named stop to end with instead of success."""
        self.llm_answer_fn = llm_answer_fn
        self.escalate_to = escalate_to
        self.emit_event_fn = emit_event_fn  # each tool step's "execution" event, as a plan's steps have

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        res = call(self.llm_answer_fn, state.goal) or {}
        if isinstance(res, str):  # spec 002 §4.4: llm_answer_fn(query) -> str
            res = {"answer": res}
        # Tool calls made while answering are evidence like any plan step, and traced like one.
        for step in res.get("steps") or []:
            if isinstance(step, PlanStep):
                state.executed_steps.append(step)
                emit_step(self.emit_event_fn, state, step)
        if isinstance(res.get("meta"), dict):
            state.meta.update(res["meta"])
        if res.get("escalate") and self.escalate_to:
            state.meta["escalated"] = str(res["escalate"])
            if res.get("complexity") is not None:  # the label the goal plans under (and its reflection budget)
                state.complexity = TaskComplexity.parse(res["complexity"])
            return state, self.escalate_to
        state.final_answer = str(res.get("answer") or "")
        state.confidence = res.get("confidence")
        if not state.stop_reason:
            # "stop_reason": a named stop instead of success (an answer whose commands disagreed)
            state.stop_reason = str(res.get("stop_reason") or "success")
        return state, "RESPOND"


class PlanNode(BaseNode):
    name = "PLAN"

    def __init__(self, generate_plan_fn: Callable[[str, str], Dict], parse_plan_fn: Callable[[Dict, str], Plan],
                 *, emit_event_fn: Optional[EmitFn] = None):
        """generate_plan_fn(goal, reflection_context) -> raw LLM JSON/dict; parse_plan_fn(raw, goal) -> Plan."""
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
        raw = call(self.generate_plan_fn, state.goal, reflection_context)
        plan = call(self.parse_plan_fn, raw, state.goal)
        return self._start(state, plan, reflection_context or None), "EXECUTE"

    def _start(self, state: ReasoningState, plan: Optional[Plan], context: Optional[str]) -> ReasoningState:
        state.plan = plan
        state.current_step_index = 0
        state.last_error = None
        state.confidence = plan.confidence if plan is not None else None
        if plan is not None:
            emit_event(self.emit_event_fn, state, "planning",
                       step_description=plan.objective,
                       context_used=context,
                       meta={"steps": [s.to_dict() for s in plan.steps], "confidence": plan.confidence})
        return state


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
            result = call(self.shell, command)
        except Exception as exc:
            return ToolResult(tool=cmd, returncode=-1, error=f"{type(exc).__name__}: {exc}")
        if isinstance(result, str):  # a shell function that returns what the command printed
            result = ToolResult(tool=cmd, returncode=0, stdout=result, command=command)
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

        # Spec 002 §4.4: llm_reflect_fn(state) -> str, the diagnosis; spec 000: (payload) -> dict.
        res = call(self.llm_reflect_fn, state if takes_state(self.llm_reflect_fn) else payload) or {}
        if isinstance(res, str):
            res = {"diagnosis": res}
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
        emit_event(self.emit_event_fn, state, "reflection",
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
    verifier's cautious answer. ``"checked_by"`` (default "model") is recorded in the
    event: v30 passes an answer quoted from the outputs without asking a model.
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
        res = self._verdict(state) or {}
        verdict = str(res.get("verdict", "pass")).lower()
        state.final_answer = res.get("answer", state.final_answer)
        if res.get("confidence") is not None:
            state.confidence = res["confidence"]
        issues = res.get("issues") or ""
        emit_event(self.emit_event_fn, state, "verification",
                   outcome_status="success" if verdict != "fail" else "failure",
                   llm_critique=str(issues) or None,
                   meta={"verdict": verdict, "confidence": state.confidence,
                         "checked_by": res.get("checked_by", "model")})
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

    def _verdict(self, state: ReasoningState) -> Any:
        if positional_arity(self.llm_verify_fn) != 2:
            return call(self.llm_verify_fn, state)
        # Spec 002 §4.4: llm_verify_fn(answer, goal) -> bool judges an answer, so there must be one.
        answer = state.final_answer or compose_from_steps(state)
        ok = resolve(self.llm_verify_fn(answer, state.goal))
        return {"answer": answer, "verdict": "pass" if ok else "fail",
                "issues": "" if ok else "the verifier rejected the answer"}


class RespondNode(BaseNode):
    """Always leaves an answer.

    On success without an answer yet, ``compose_answer_fn(state) -> str`` (the LLM
    writer) composes one from the step outputs; without it, or if it fails, a
    plain summary of the outputs is used. On ``max_reflections`` /
    ``max_iterations`` — or any other stop without an answer — it writes the
    "Partial Results" summary of spec 001 Phase 5. A run that would end in
    success with no successful tool output behind a tool goal ends in
    ``no_evidence`` instead, with that summary: its answer was not read from
    the project. A run that ends without an answer after an MCP server died,
    hung or answered garbage in one of its steps (REFLECT had its chance to
    route around it) stops with that failure's name (``mcp_server_died``, ...);
    the stop it would have had is kept in ``meta["stop_before_server_failure"]``.
    """

    name = "RESPOND"

    def __init__(self, emit_event_fn: Optional[Callable[[ReasoningEvent], None]] = None,
                 *, compose_answer_fn: Optional[Callable[[ReasoningState], str]] = None):
        self.emit_event = emit_event_fn
        self.compose_answer_fn = compose_answer_fn

    def run(self, state: ReasoningState) -> Tuple[ReasoningState, str]:
        if state.stop_reason in (None, "success") and rests_on_no_evidence(state):
            state.stop_reason = "no_evidence"
        unanswered = state.stop_reason in NO_ANSWER_REASONS
        if state.stop_reason in PARTIAL_REASONS or (state.stop_reason not in (None, "success") and not state.final_answer):
            unanswered = True
            state.final_answer = partial_results(state)
            # The report is ragix's account of what was tried, not an answer: a scorer must not read
            # its step numbers and counts as one (eval/evaluate.py).
            state.meta[REPORT_NOT_ANSWER] = True
        elif not state.final_answer:
            state.final_answer = self._compose(state)
        state.stop_reason = state.stop_reason or "success"
        failure = server_failure([s.result for s in state.executed_steps]) if unanswered else None
        if failure:
            state.meta["stop_before_server_failure"] = state.stop_reason
            state.stop_reason = failure

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
                answer = call(self.compose_answer_fn, state)
                if isinstance(answer, str) and answer.strip():
                    return answer
            except Exception as exc:
                state.meta["compose_error"] = f"{type(exc).__name__}: {exc}"
        return compose_from_steps(state)
