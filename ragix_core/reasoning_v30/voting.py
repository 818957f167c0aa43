"""Execution voting for one command (MBR-exec, arXiv 2204.11454; Adaptive-Consistency, 2305.11860).

The worker is asked for a command up to ``k_max`` times (the first greedily,
the next ones sampled at ``temperature``); each command runs in the confined
tool box; failed and refused ones are dropped; the rest are clustered by the
output they printed (``sampling.normalize_output``); sampling stops as soon as
``quorum`` outputs agree. A command the worker repeats is a vote for its
output, not a second run. The winner is the first command of the largest
cluster; the agreement becomes the run's confidence.

Outputs that show nothing (``evidence.steps.found_nothing``: a search without a
match, an empty listing, a pipeline that counted 0) are empty evidence: they never
make the quorum, any command that found something wins over them, and a vote
where every command found nothing has its confidence halved and says so in the
answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import NO_MATCHES, Fix, found_nothing
from ragix_core.sampling import SampleRun, adaptive_sample, normalize_output

__all__ = ["CommandVote", "VoteOutcome", "found_nothing", "output_key"]

# A backend that is down or too slow, or a prompt too long for it (the next draw's is as long), ends the
# run; any other named stop (an invalid reply) is one failed draw among several.
_FATAL = ("llm_timeout", "llm_unavailable", "context_too_long")
AskCommand = Callable[[str, int, bool], str]  # (feedback, draw index, sample rather than greedy) -> command
RunStep = Callable[..., Optional[Fix]]  # run_step(step, final=False): runs it; returns a fix to run instead, or None


def output_key(step: PlanStep) -> str:
    r = step.result
    if r is None:
        return ""
    return NO_MATCHES if r.no_match and not (r.stdout or "").strip() else normalize_output(r.stdout or "")


def _same_command(command: str) -> str:
    return re.sub(r"\s+", " ", command.strip())


@dataclass
class VoteOutcome:
    steps: List[PlanStep] = field(default_factory=list)  # every command that ran, in order
    run: Optional[SampleRun[PlanStep]] = None
    no_command: List[str] = field(default_factory=list)  # why draws produced no command

    @property
    def winner(self) -> Optional[PlanStep]:
        return self.run.best.representative if self.run and self.run.best else None

    @property
    def usable(self) -> int:
        return len(self.run.samples) if self.run else 0

    @property
    def agreed(self) -> int:
        return self.run.best.size if self.run and self.run.best else 0

    @property
    def found_nothing(self) -> bool:
        """Every command that ran found nothing: the answer rests on an absence."""
        return bool(self.run and self.run.best_is_empty)

    def confidence(self, quorum: int) -> float:
        """Agreement, scaled down when fewer usable samples than the quorum were seen, and halved
        when the agreement is on finding nothing."""
        if not self.usable:
            return 0.0
        c = self.run.agreement * min(1.0, self.usable / max(quorum, 1))
        return round(c / 2 if self.found_nothing else c, 3)

    @property
    def needs_caveat(self) -> bool:
        """The answer should say how the vote went: the commands disagreed, or none found anything."""
        return self.usable > self.agreed or self.found_nothing

    @property
    def disputed(self) -> bool:
        """Commands found different things and no two agreed. A command that found nothing does not
        dispute one that found something (measured, dataclass-name at fc92558: greps of api.py and
        __init__.py that matched nothing sent the one that found `@dataclass` in models.py to PLAN)."""
        found = self._found_clusters()
        return len(found) >= 2 and found[0].size < 2

    def _found_clusters(self) -> list:
        return [c for c in self.run.clusters if c.key not in self.run.empty_keys] if self.run else []

    def summary(self) -> str:
        """"3 commands ran, 2 agreed on this output" — for the answer when the vote is weak."""
        if self.found_nothing:
            return f"{self.usable} command{'s' if self.usable != 1 else ''} ran, none found anything"
        found = self._found_clusters()
        empty = self.usable - sum(c.size for c in found)
        if empty and len(found) == 1:
            return f"{self.usable} commands ran, {self.agreed} found this output, {empty} found nothing"
        return f"{self.usable} commands ran, {self.agreed} agreed on this output"


class CommandVote:
    def __init__(self, ask_command: AskCommand, run_step: RunStep, *, k_max: int = 3, quorum: int = 2):
        self.ask_command = ask_command
        self.run_step = run_step
        self.k_max = k_max
        self.quorum = quorum

    def vote(self, description: str) -> VoteOutcome:
        outcome = VoteOutcome()
        ran: Dict[str, PlanStep] = {}
        failures: List[str] = []
        repeated = [False]

        def draw(i: int) -> Optional[PlanStep]:
            feedback = "".join(failures[-2:])
            # Greedy while correcting a failure; sampled to confirm a working command, or when the
            # model just repeated a command (greedy decoding would repeat it again).
            sample = repeated[0] or any(s.status == StepStatus.SUCCESS for s in outcome.steps)
            try:
                command = self.ask_command(feedback, i, sample)
            except StopRun as stop:
                if stop.reason in _FATAL:
                    raise
                outcome.no_command.append(stop.message)
                return None
            seen = ran.get(_same_command(command))
            repeated[0] = seen is not None
            if seen is not None:  # the same command again: a vote for its output, not a second run
                return seen if seen.status == StepStatus.SUCCESS else None
            step = self._run(command, description, len(outcome.steps) + 1, outcome)
            ran[_same_command(command)] = step
            if step.status == StepStatus.SUCCESS:
                return step
            r = step.result
            why = (r.error or r.stderr or "").strip() if r else ""
            failures.append(f"\n\nThe command `{command}` did not work: {bounded(why, 400)}\n"
                            "Return a different, valid command.")
            return None

        outcome.run = adaptive_sample(draw, output_key, k_max=self.k_max, quorum=self.quorum, empty=found_nothing)
        if not outcome.steps and outcome.no_command:
            raise StopRun("command_generation_failed", outcome.no_command[-1])
        return outcome

    def _run(self, command: str, description: str, num: int, outcome: VoteOutcome) -> PlanStep:
        step = PlanStep(num=num, description=description, tool_call=ToolCall("shell", {"command": command}))
        fix = self.run_step(step)
        outcome.steps.append(step)
        if fix is None:
            return step
        # A fix ragix found itself (a close file name, a search over the project, a substitution as
        # xargs) is run without asking the model again (1.5B models tend to retry the same wrong path);
        # its note or aside says so.
        again = PlanStep(num=num + 1, description=fix.note,
                         tool_call=ToolCall("shell", {"command": fix.command, fix.key: fix.note}))
        self.run_step(again, final=True)  # no second fix runs: the reducer checks apply now
        outcome.steps.append(again)
        return again
