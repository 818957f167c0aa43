"""DIRECT_EXEC's answers: a BYPASS goal from the model alone, a tool goal from voted commands.

A mixin of ``AgentFunctions`` (agent_fns.py), which holds the roles, the tool box and the
run's state these methods read: ``voting``, ``tools``, ``worker``, ``looks``, ``may_escalate``,
``tried``, ``last_complexity`` and the shared ``file_context``, ``compose_for``, ``_run`` and
``plan_complexity``. The one-command path (execution voting, the looks after it, the try-first
escalation) is one concept, kept apart from planning, execution and reflection.
"""

from __future__ import annotations

from typing import Any, Dict, List

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus, TaskComplexity
from ragix_core.evidence.steps import found_nothing, step_output
from ragix_core.llm.codeblock import extract_command
from ragix_core.llm.structured import ask_json, ask_text

from .replies import AnswerReply, CommandReply
from .voting import CommandVote

__all__ = ["DirectAnswers", "MAX_LOOK_ROUNDS"]

MAX_LOOK_ROUNDS = 6  # rounds of ragix's own looks after the one command (an import chain takes one a level)


def _tried(steps: List[PlanStep]) -> str:
    """The one-command try, for the planner: each command and what it gave."""
    lines = []
    for s in steps:
        command = s.tool_call.args.get("command") if s.tool_call else ""
        verdict = "ok" if s.status == StepStatus.SUCCESS else "FAILED"
        lines.append(f"- `{command}` [{verdict}]: {bounded(step_output(s, limit=300), 300) or '(no output)'}")
    return "Tried first, as one command:\n" + "\n".join(lines) if lines else ""


class DirectAnswers:
    """DIRECT_EXEC's answer function and the one-command path behind it (see the module docstring)."""

    def answer(self, goal: str) -> Dict[str, Any]:
        if self.last_complexity != TaskComplexity.BYPASS and self.tools:
            return self._answer_with_one_command(goal)
        msg = [{"role": "user", "content": prompts.render("direct_answer", goal=bounded(goal, 4000))}]
        reply, _ = ask_json(self.worker, msg, AnswerReply, stop_reason="answer_failed", max_tokens=600)
        return {"answer": reply.answer, "confidence": reply.confidence}

    def _ask_command(self, goal: str, listing: str, feedback: str, draw: int, sample: bool) -> str:
        """Draw ``draw`` of a command for ``goal``: at the role's temperature (greedy by default), or at
        voting.temperature when ``sample`` (see voting.CommandVote). The prompt's fixed part comes first
        and the feedback last, so the model's prompt cache serves the repeated prefix."""
        v = self.voting
        temperature = v.temperature if sample else None  # None: the role's own (0 unless configured)
        seed = v.seed + draw if v.seed is not None else None
        text = prompts.render("simple_command" if v.command_format == "json" else "simple_command_text",
                              goal=bounded(goal, 4000), file_context=listing, tools=", ".join(self.tools)) + feedback
        msg = [{"role": "user", "content": text}]
        if v.command_format == "json":
            reply, _ = ask_json(self.worker, msg, CommandReply, stop_reason="command_generation_failed",
                                max_tokens=120, temperature=temperature, seed=seed)
            return reply.command
        completion = ask_text(self.worker, msg, max_tokens=160, temperature=temperature, seed=seed)
        command = extract_command(completion.text)
        if not command:
            raise StopRun("command_generation_failed", f"no command in the reply: {bounded(completion.text, 200)}")
        return command

    def _answer_with_one_command(self, goal: str) -> Dict[str, Any]:
        """Execution voting (reasoning_v30/voting.py): commands drawn until two outputs agree, then the
        looks a finished plan gets. On the try-first route a goal whose commands all failed, all found
        nothing, or found different things goes to PLAN instead."""
        listing = self.file_context()
        v = self.voting
        vote = CommandVote(lambda feedback, i, sample: self._ask_command(goal, listing, feedback, i, sample),
                           lambda step, final=False: self._run(step, goal, final),
                           k_max=v.k_max, quorum=v.quorum).vote(goal)
        meta = {"vote": {"drawn": vote.run.draws if vote.run else 0, "ran": len(vote.steps), "usable": vote.usable,
                         "agreed": vote.agreed, "entropy": round(vote.run.entropy, 3) if vote.run else None,
                         "found_nothing": vote.found_nothing,
                         "commands": [s.tool_call.args.get("command") for s in vote.steps if s.tool_call]}}
        winner = vote.winner
        # On the try-first route, finding nothing is a failed try too (measured, out-of-stock-items at
        # fc92558: two empty greps of storage.py, then the reads after them answered from storage.py);
        # a plan has the same looks and also doubts an all-empty result before concluding absence.
        if self.may_escalate and (winner is None or vote.disputed or vote.found_nothing):
            self.tried = _tried(vote.steps)
            why = "no command worked" if winner is None else \
                "every command found nothing" if vote.found_nothing else "the commands disagreed"
            return {"escalate": why,
                    "complexity": self.plan_complexity(goal),
                    "steps": vote.steps if winner is None else [], "meta": meta}
        if winner is None:
            # Nothing to answer from: no model call; RESPOND reports what was tried (no_evidence).
            return {"answer": "", "confidence": 0.0, "steps": vote.steps, "meta": meta}
        evidence = self._looked_after([winner], goal, first=len(vote.steps) + 1)
        if len(evidence) > 1:
            meta["vote"]["looked"] = [s.tool_call.args["command"] for s in evidence[1:]]
        answer = self.compose_for(goal, evidence)
        if vote.needs_caveat and not any(s.status == StepStatus.SUCCESS and not found_nothing(s) for s in evidence[1:]):
            answer = f"{answer.rstrip()}\n\n(ragix: {vote.summary()}.)"
        return {"answer": answer, "confidence": vote.confidence(v.quorum), "steps": evidence, "meta": meta}

    def _looked_after(self, evidence: List[PlanStep], goal: str, first: int) -> List[PlanStep]:
        """``evidence`` with the looks a finished plan gets (reasoning_v30/looks.py) run after it:
        the one command's answer stands on the same evidence a plan's would (measured: the plan-end
        looks decided most of the code-analysis passes, and the one-command path had only the
        reads after an empty search)."""
        evidence = list(evidence)
        for _ in range(MAX_LOOK_ROUNDS):
            looks = self.looks.after(goal, evidence, first + len(evidence) - 1)
            if not looks:
                break
            for look in looks:
                self._run(look)
                evidence.append(look)
        return evidence

