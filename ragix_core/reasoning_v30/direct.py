"""DIRECT_EXEC's answers: a BYPASS goal from the model alone, a tool goal from the main path.

A mixin of ``AgentFunctions`` (agent_fns.py), which holds the roles, the tool box and the run's
state these methods read: ``voting``, ``tools``, ``worker``, ``root``, ``may_escalate``, ``tried``
and the shared ``file_context``, ``compose_for``, ``_run`` and ``plan_complexity``. The main path
itself (one greedy command, a vote after a failure, retries on the real error, a disputed output read
beside its rival: judge.py) is attempt.py; this
module asks for the commands and turns the outcome into an answer or an escalation to PLAN.
"""

from __future__ import annotations

import re
from typing import Any, Dict, List, Optional

from ragix_core import prompts
from ragix_core.core.asks import asks_quantity
from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus, TaskComplexity, ToolResult
from ragix_core.evidence.feedback import execution_feedback
from ragix_core.evidence.numbers import marks_unsupported
from ragix_core.evidence.steps import shown_command, step_output
from ragix_core.llm.structured import ask_json

from .attempt import GREEDY, SAMPLED, AttemptOutcome, CommandAttempt
from .computed import Computed, number_to_compute, printed_number
from ragix_core.llm.command_prompt import ask_free_command, command_request, pasted_placeholder
from .judge import ask_judge
from .read_off import wc_line_answer
from .replies import AnswerReply

__all__ = ["DirectAnswers", "DISPUTED", "UNCONFIRMED", "UNSUPPORTED", "NO_CHANGE"]

DISPUTED = "disputed"  # the stop reason of an answer whose voted commands printed different outputs
UNCONFIRMED = "unconfirmed"  # the stop reason of a short answer no second, different command reproduced
UNSUPPORTED = "unsupported_answer"  # the stop reason of an answer stating a number no output shows
NO_CHANGE = "no_change"  # the stop reason of an answer resting on a write that changed nothing
UNSUPPORTED_CONFIDENCE = 0.3
# A retry that repeated a command is drawn again at least this hot: at voting.temperature (0.7) the model
# wrote the same failing command on every draw of an AgentBench OS task (test-52 at 89b7b60).
HOT_TEMPERATURE = 1.0


def _tried(steps: List[PlanStep]) -> str:
    """The main path's commands, for the planner: each command and what it gave."""
    lines = []
    for s in steps:
        command = s.tool_call.args.get("command") if s.tool_call else ""
        verdict = "ok" if s.status == StepStatus.SUCCESS else "FAILED"
        lines.append(f"- `{command}` [{verdict}]: {bounded(step_output(s, limit=300), 300) or '(no output)'}")
    return "Tried first, one command at a time:\n" + "\n".join(lines) if lines else ""


def _one_line(output: str) -> str:
    return bounded(" / ".join(line.strip() for line in output.splitlines() if line.strip()), 120)


def _silent_write(step: PlanStep) -> bool:
    """The command changed the project and printed nothing."""
    r = step.result
    return r is not None and r.changed and not (r.stdout or "").strip()


def _quantity_from_a_silent_write(goal: str, answer: str, winner: PlanStep) -> bool:
    """``goal`` asks for a quantity, ``answer`` states a number, and ``winner`` changed the project and
    printed nothing: the number was read from no output."""
    return _silent_write(winner) and asks_quantity(goal) and re.search(r"\d", answer or "") is not None


class DirectAnswers:
    """DIRECT_EXEC's answer function and the main path behind it (see the module docstring)."""

    def answer(self, goal: str) -> Dict[str, Any]:
        if self.last_complexity != TaskComplexity.BYPASS and self.tools:
            return self._answer_with_one_command(goal)
        msg = [{"role": "user", "content": prompts.render("direct_answer", goal=bounded(goal, 4000))}]
        reply, _ = ask_json(self.worker, msg, AnswerReply, stop_reason="answer_failed", max_tokens=600)
        return {"answer": reply.answer, "confidence": reply.confidence}

    def command_prompt(self, goal: str) -> str:
        """The worker's request for a command (benchmarks reuse it)."""
        return command_request(goal, self.tools, self.file_context(), self.model_commands(),
                               home_is_root=getattr(self.toolbox, "home_is_root", False))

    def _ask_command(self, prompt: str, feedback: str, draw: int, heat: int) -> str:
        """Draw ``draw`` of a command: greedy (the role's temperature), at voting.temperature when
        sampled, at least HOT_TEMPERATURE when HOTTER (a retry that repeated a command). The fixed prompt
        comes first and the feedback last, so the model's prompt cache serves the repeated prefix."""
        v = self.voting
        temperature = None if heat == GREEDY else v.temperature if heat == SAMPLED else max(v.temperature,
                                                                                             HOT_TEMPERATURE)
        seed = v.seed + draw if v.seed is not None else None
        return ask_free_command(self.worker, prompt + feedback, temperature=temperature, seed=seed)

    def _answer_with_one_command(self, goal: str) -> Dict[str, Any]:
        """The main path (attempt.py). On the try-first route a goal whose commands all failed or all
        found nothing goes to PLAN; otherwise the answer is written from the winning output alone."""
        prompt = self.command_prompt(goal)
        v = self.voting
        attempt = CommandAttempt(lambda feedback, i, sample: self._ask_command(prompt, feedback, i, sample),
                                 lambda step, final=False: self._run_written(step, goal, final),
                                 lambda step: execution_feedback(step, self.root, probe=self.diagnose_shell),
                                 samples=v.samples, quorum=v.quorum, retries=v.retries,
                                 confirm_lines=v.confirm_lines, cross_checks=v.cross_checks,
                                 cross_check_draws=v.cross_check_draws, tell_samples=v.tell_samples,
                                 judge=(lambda a, b: ask_judge(self.worker, goal, a, b)) if v.judge_disputes else None)
        outcome = attempt.attempt(goal)
        meta = {"attempt": outcome.to_meta()}
        winner = outcome.winner
        idle = outcome.decided_by == "unchanged"  # nothing found anything: a plan may, as after no winner
        if ((winner is None or idle) and self.may_escalate
                and (outcome.write_refused is not None or self.plan_after_failure)):
            # A plan runs the reads of a goal whose command writes in a read-only run, and says which
            # writes it did not make (evidence/steps.refused_write).
            self.tried = _tried(outcome.steps)
            why = "the command writes and this run may only read" if outcome.write_refused is not None else \
                "every command found nothing" if outcome.found_nothing else "no command worked"
            return {"escalate": why, "complexity": self.plan_complexity(goal), "steps": outcome.steps, "meta": meta}
        if winner is not None and _silent_write(winner) and asks_quantity(goal):
            # The write was one part of the goal; the quantity it asks is read by one more command.
            rest = attempt.after_write(goal, outcome)
            if rest is not None:
                outcome.winner, outcome.decided_by = rest, "after_write"
            meta["attempt"] = outcome.to_meta()  # the draws it added counted
            if rest is not None:
                return self._answer_from(goal, attempt, outcome, meta, done=[winner])
        if winner is None:
            # Nothing to answer from: no model call; RESPOND reports what was tried. Commands that only found
            # nothing end `no_evidence` too: an empty search agrees with itself whether its pattern or path was
            # right or wrong (absence.py), so "none found" is said beside its commands, not claimed.
            return {"answer": "", "confidence": 0.0, "steps": outcome.steps, "meta": meta, "stop_reason": "no_evidence"}
        return self._answer_from(goal, attempt, outcome, meta)

    def _run_written(self, step: PlanStep, goal: str, final: bool = False) -> Any:
        """Run a command the worker wrote, unless it holds a placeholder of the request's examples:
        that one is refused unrun, and the refusal (the retry's feedback) says which."""
        command = str(step.tool_call.args.get("command") or "") if step.tool_call else ""
        placeholder = pasted_placeholder(command)
        if placeholder is None:
            return self._run(step, goal, final)
        step.result = ToolResult("shell", 126, refused=True, command=command,
                                 error=f"refused: `{placeholder}` is a placeholder of the instructions' examples; "
                                       "write the real name, extension or text the goal is about")
        step.status = StepStatus.FAILED
        return None

    def _answer_from(self, goal: str, attempt: CommandAttempt, outcome: AttemptOutcome,
                     meta: Dict[str, Any], done: Optional[List[PlanStep]] = None) -> Dict[str, Any]:
        """The answer from ``outcome.winner``; ``done``: the writes that ran before it, part of the evidence."""
        read = printed_number(outcome.winner) or wc_line_answer(outcome.winner)
        # "output": no writer, the output is one number or one row `wc` printed for a file (read_off.py; ragix's
        # notes are still added); "writer": the model wrote it
        meta["attempt"]["answer_from"] = "writer" if read is None else "output"
        evidence = list(done or []) + [outcome.winner]
        written = self.write_answer(goal, evidence) if read is None else read
        computed = self._compute(goal, written, attempt, outcome) if read is None else None
        if computed is not None:
            meta["attempt"].update(outcome.to_meta(), computed=computed.to_meta())  # the draws it added counted
            if computed.number is not None:
                evidence = evidence + [computed.step]
                written = computed.answer(written)
        answer = self._grounded(goal, written, evidence)
        # The answer's evidence is the winning command (and the one that computed its number); every command
        # that ran is in the trace (its tool events) and in meta["attempt"]["draws"], with what each printed.
        result: Dict[str, Any] = {"confidence": outcome.confidence(), "steps": evidence, "meta": meta}
        # A caveat is said beside the answer (meta "caveat": the CLI prints it under the answer, --json and
        # the page show it), not inside it: a reader or a script taking the answer's number must not take a
        # rival command's number or a digit of a command line for it (measured at 54895a2: 2 of 12
        # AgentBench answers right as written were read as wrong with the caveat inside them).
        if outcome.decided_by == "unchanged":
            # Nothing found anything, and the write it rests on left the project as it was: said, not claimed.
            meta["caveat"] = f"{outcome.summary()}: `{shown_command(outcome.winner)}`."
            result["stop_reason"] = NO_CHANGE
            result["confidence"] = min(result["confidence"], UNSUPPORTED_CONFIDENCE)
        elif outcome.disputed:
            # Commands that found different things: the caveat says so and the run does not claim success.
            others = "; ".join(f"`{shown_command(s)}` printed \"{_one_line(step_output(s, limit=200))}\""
                               for s in outcome.rivals())
            meta["caveat"] = (f"{outcome.summary()}: `{shown_command(outcome.winner)}`"
                              f"{'. Other outputs: ' + others if others else ''}.")
            result["stop_reason"] = DISPUTED
        elif computed is not None and not computed.agrees:
            # The answer's number rests on one command that computed it, or on the writer's arithmetic alone.
            meta["caveat"] = f"{computed.caveat()}."
            result["stop_reason"] = UNSUPPORTED if marks_unsupported(answer) else UNCONFIRMED
            result["confidence"] = min(result["confidence"], 0.5 if computed.number is not None else 0.4)
        elif outcome.unconfirmed:
            # One pipe's count or name, which a wrong pipe prints as plausibly: the answer stands, said to
            # rest on one command, and the run does not claim success for it.
            meta["caveat"] = f"{outcome.summary()}: `{shown_command(outcome.winner)}`."
            result["stop_reason"] = UNCONFIRMED
            if marks_unsupported(answer):
                result["stop_reason"] = UNSUPPORTED
                result["confidence"] = min(result["confidence"], UNSUPPORTED_CONFIDENCE)
        elif _quantity_from_a_silent_write(goal, answer, outcome.winner):
            # Asked for a quantity, the winning command wrote and printed nothing: whatever number the answer
            # states, 0 and 1 included, no output shows it (AgentBench OS test-115 at a6351b3: `touch` on
            # every file, then "0" files, ended `success`; test-92: one `mkdir -p`, then "3" directories).
            meta["caveat"] = (f"the answer's number rests on no output: `{shown_command(outcome.winner)}` changed "
                              "the project and printed nothing.")
            result["stop_reason"] = UNSUPPORTED
            result["confidence"] = min(result["confidence"], UNSUPPORTED_CONFIDENCE)
        elif marks_unsupported(answer):
            # The writer stated a number the winning output does not show (evidence/numbers.py marks it):
            # the answer stands with its mark, and the run does not claim success for it.
            result["stop_reason"] = UNSUPPORTED
            result["confidence"] = min(result["confidence"], UNSUPPORTED_CONFIDENCE)
        result["answer"] = answer
        return result

    def _compute(self, goal: str, answer: str, attempt: CommandAttempt,
                 outcome: AttemptOutcome) -> Optional[Computed]:
        """A command for the number the writer worked out from a long output (computed.py), or None when
        the answer states no such number or the run wrote (the write is the result)."""
        if (not self.voting.compute_derived or outcome.disputed or outcome.winner.result is None
                or outcome.winner.result.writes):
            return None
        derived = number_to_compute(goal, answer, outcome.winner, self.voting.confirm_lines)
        if derived is None:
            return None
        return Computed(derived, outcome.winner, attempt.compute(goal, outcome))
