"""Answers written without a model: the step-output summary and the
"Partial Results" report of spec 001 Phase 5.

These are deterministic on purpose: they are what the user gets when the
model has already failed (or the user stopped the run), so they must not depend
on it. Every engine's interrupted run uses them (runtime/run.py), hence their
place below the engines.
"""

from __future__ import annotations

from typing import List

from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, ReasoningState, StepStatus
from ragix_core.evidence.steps import shown_command, step_output, writes_not_run

__all__ = ["compose_from_steps", "partial_results", "recommendation", "REPORT_NOT_ANSWER"]

# The state.meta key set when a run's final answer is the Partial Results report: the run found no answer.
REPORT_NOT_ANSWER = "final_answer_is_report"


MAX_LISTED = 8  # commands a partial answer lists (the main path runs at most 1 + samples + retries)


def _command(step: PlanStep) -> str:
    if step.result is not None or (step.tool_call is not None and step.tool_call.args.get("command")):
        return shown_command(step)
    return step.tool_call.tool if step.tool_call is not None else "(no tool)"


def compose_from_steps(state: ReasoningState) -> str:
    """The outputs of the successful steps, in order, each under its description."""
    lines: List[str] = []
    for step in state.executed_steps:
        if step.status != StepStatus.SUCCESS:
            continue
        out = step_output(step)
        lines.append(f"Step {step.num}: {step.description}\n$ {_command(step)}\n{out}".rstrip())
    if not lines:
        return "The plan completed, but no step produced output."
    return "\n\n".join(lines)


def recommendation(state: ReasoningState) -> str:
    errors = [a.error.lower() for a in state.reflection_attempts] + [(state.last_error or "").lower()]
    if state.stop_reason == "user_abort":
        if state.meta.get("resumable"):
            return (f"You stopped the run. `ragix run --resume {state.session_id}` continues it from its last "
                    "checkpoint.")
        return "You stopped the run. Run the goal again to start over."
    if state.stop_reason == "llm_timeout":
        return ("The model did not answer in time. Raise llm.default.timeout in ragix.yaml, use a smaller model, "
                "or run when the machine is less busy.")
    if state.stop_reason == "context_too_long":
        return ("A prompt did not fit the model's context window. Raise llm.default.n_ctx in ragix.yaml "
                "(the model's own limit permitting), or ask about a smaller part of the project.")
    if state.stop_reason == "llm_unavailable":
        return "The model could not be reached or loaded. Run `ragix doctor` to see which backend failed and why."
    if writes_not_run(state.executed_steps) and not any(s.status == StepStatus.SUCCESS for s in state.executed_steps):
        return ("This run may only read, and the plan's steps that write were not run. Start ragix with --yes "
                "to let it write inside the project, or ask about what already exists.")
    if state.stop_reason and state.stop_reason.endswith("_failed"):
        return ("The model's output stayed invalid after a repair attempt. A larger planner model "
                "(--planner-model) usually fixes this.")
    if any("not found" in e or "no such file" in e for e in errors):
        return "Some required files or commands may not exist. Please verify the project structure and the paths named in the goal."
    if any("refused" in e or "blocked" in e or "not allowed" in e for e in errors):
        return "A command was refused by the active profile. Rephrase the goal for read-only tools, or run with a profile that allows it."
    if any("permission" in e for e in errors):
        return "There may be permission issues. Try running with appropriate access."
    if state.stop_reason == "no_evidence" and any(s.status == StepStatus.SUCCESS for s in state.executed_steps):
        return ("The commands that ran found nothing: the absence may be real, or a pattern or path may be wrong. "
                "Check the names and paths in the goal against the project, or rephrase it "
                "(`reasoning.plan_after_failure: true` lets a plan try other routes).")
    if state.stop_reason == "no_evidence":
        return ("No tool output supports an answer: no command that ran succeeded. Check the names and paths "
                "in the goal against the project, or rephrase it.")
    if state.stop_reason == "max_iterations":
        return "The run hit its iteration limit. Break the task into smaller goals or raise reasoning.graph.max_iterations."
    return "Consider breaking this task into smaller steps or providing more specific guidance."


def partial_results(state: ReasoningState) -> str:
    attempts: List[str] = []
    for i, a in enumerate(state.reflection_attempts, 1):
        attempts.append(f"**Attempt {i}** (Step {a.failed_step})\n- Error: {a.error[:200]}\n- Diagnosis: {a.diagnosis[:400]}")
    failed = [s for s in state.executed_steps if s.status == StepStatus.FAILED]
    if failed and (not state.reflection_attempts or failed[-1].num != state.reflection_attempts[-1].failed_step
                   or len(failed) > len(state.reflection_attempts)):
        last = failed[-1]
        attempts.append(f"**Last failure** (Step {last.num}: {last.description})\n- Error: {(state.last_error or step_output(last))[:300]}")
    if not attempts and state.last_error:
        attempts.append(f"- {state.last_error[:500]}")
    if not state.reflection_attempts and (len(state.executed_steps) > 1 or (state.executed_steps and not failed)):
        # The main path's commands (no plan, no reflection): each one and what it gave, so the user sees
        # what was searched and where, and can judge an absence or rephrase.
        ran = [f"- `{_command(s)}`: {bounded(step_output(s, limit=200), 200) or '(no output)'}"
               for s in state.executed_steps[:MAX_LISTED]]
        more = len(state.executed_steps) - MAX_LISTED
        attempts.append("**Commands run**\n" + "\n".join(ran) + (f"\n- ... and {more} more" if more > 0 else ""))
    writes = writes_not_run(state.executed_steps)
    if writes:
        attempts.append("**Not run** (they write; this run may only read)\n" + "\n".join(f"- `{c}`" for c in writes))
    tried = "\n\n".join(attempts) or "No step could be completed."

    outputs = [f"Step {s.num} ({s.description}):\n{step_output(s)}" for s in state.executed_steps
               if s.status == StepStatus.SUCCESS and step_output(s)]
    partial = "\n\n".join(outputs) or "(no step produced output)"

    return (
        "## Partial Results\n\n"
        f"I attempted to complete your request but stopped ({state.stop_reason}) "
        f"after {state.reflection_count} recovery attempt(s).\n\n"
        f"### What Was Tried\n\n{tried}\n\n"
        f"### Recommendation\n\n{recommendation(state)}\n\n"
        f"### Partial Output\n\n{partial}\n"
    )
