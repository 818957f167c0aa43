"""The main path for a tool goal: one free-form command, sampled, run, voted and retried on its real error.

The order is what the published evidence for small models supports:
1. one greedy command (NL2SH, arXiv 2502.06858: a free answer's first code block);
2. when it failed, was refused or found nothing, ``samples`` more drawn at a temperature, each told what
   its run showed (the retry's feedback, step 3), and voted on
   by the outputs they printed (MBR-exec 2204.11454, CodeT 2207.10397): failed and empty outputs never
   win, sampling stops as soon as ``quorum`` outputs agree. A greedy command whose output is short (at
   most ``confirm_lines`` lines: a count, a name, a superlative, where one wrong pipe still prints a
   plausible answer) is ``unconfirmed``: it rests on one command. With ``cross_check_draws`` above 0
   (none by default) it is cross-checked by commands drawn at a temperature and asked to compute it
   another way (prompts/command_followup.md, cross_check), until ``cross_checks`` of them printed
   something or ``cross_check_draws`` were drawn. A different command that prints the same thing
   confirms it; any other output leaves it disputed, never replaced: cross-check draws are worse
   commands than the greedy one (measured at ec0ed53: where they outvoted a right greedy count, the
   run ended ``success`` on their wrong one). A short output no second command reproduced is
   ``unconfirmed``, and so is any read that only one sample or retry found after the greedy command
   failed. A cross-check changes only the stop reason, and on the three unseen sets it cost the
   typical run 40 % of its time for a weak signal, so none is drawn by default (docs/DECISIONS.md);
3. when still nothing was found, at most ``retries`` commands written after reading what a person
   would read (exit code, stderr, close names, the nearest directory's listing: evidence/feedback.py;
   InterCode 2306.14898's "try again" on execution feedback);
4. a disputed winner is put to ``judge`` beside each rival output's command, in both orders: the rival
   becomes the answer's basis only when both readings pick it (judge.py says why). The run stays
   ``disputed`` either way: the commands did disagree.
What is left after that is the caller's: a plan (ADaPT 2311.05772, decompose only after failure) when
``reasoning.plan_after_failure`` asks for one, else an honest ``no_evidence``.

A command the model repeats is not run again, and it is not a second vote either: agreement means two
different commands printed the same thing, since the same pipe repeated repeats its mistake (measured at
d80e847: most wrong answers ending ``success`` were a count printed by one pipe, never put to a second
command or "confirmed" by a sample that wrote the same pipe again). Nor does a command confirm the winner
when its first stage (what it reads) is the winner's: it repeats that search's mistake and only counts it
another way (``AttemptOutcome.agreed_another_way``). An ``echo``
or ``printf`` states its output instead of finding it and never votes. A command that
changes the project (cp, mkdir, `> FILE`, allowed with --yes) is its own result when it succeeds, and
is never sampled alongside others: after a failed write only the retries run, one at a time. A write
that changed nothing (``mkdir -p`` of a directory that exists: tools/tree_state.py) found nothing: it is
voted and retried like an empty search, and answers only when nothing else found anything, as
``unchanged`` (measured on AgentBench OS at b276682: four tasks whose set-up had made the files opened
with `mkdir`; where `mkdir -p logs` changed nothing, the run answered a count no command computed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

from ragix_core import prompts
from ragix_core.core.stop import BudgetSpent, StopRun
from ragix_core.core.types import PlanStep, StepStatus, ToolCall
from ragix_core.evidence.steps import Fix, found_nothing, refused_write
from ragix_core.sampling import SampleRun, StopSampling, adaptive_sample

from .computed import computed_number, output_lines, plural, printed_number
from .step_kinds import (CONFIRM_LINES, a_read, changes, doubted, draw_output, first_stage_of, is_short, kind_of,
                         listed, output_key, ran_well, reads_alike, same_command, sound, states_itself, unchanged_write,
                         usable)

__all__ = ["CommandAttempt", "AttemptOutcome", "AskCommand", "GREEDY", "SAMPLED", "HOTTER", "output_key", "FATAL_STOPS",
           "CONFIRM_LINES", "CROSS_CHECKS", "CROSS_CHECK_DRAWS"]

CROSS_CHECKS = 1  # cross-check draws that printed something, at most (voting.cross_checks)
# Cross-check draws, at most (voting.cross_check_draws). A cross-check changes only the stop reason, never the
# answer, for one more model call. None by default: at 40b91a0, of the 75 greedy runs of the three unseen sets
# that drew one, the 7 it confirmed were right 6 times, the 14 it disputed 9 times and the 54 it left
# unconfirmed 41 times, for 40 % of a typical run's time (docs/DECISIONS.md). 0 leaves a short output
# `unconfirmed`.
CROSS_CHECK_DRAWS = 0

# A backend that is down or too slow, or a prompt too long for it, ends the run; any other named stop
# (a reply without a command) is one failed draw among several.
FATAL_STOPS = ("llm_timeout", "llm_unavailable", "context_too_long")
# (feedback, draw index, heat) -> command; heat is GREEDY, SAMPLED or HOTTER (False and True read as the first two)
AskCommand = Callable[[str, int, int], str]
GREEDY, SAMPLED, HOTTER = 0, 1, 2
# (command 1, command 2) -> 1 or 2, the one said to compute the goal; None when the reply named neither
Judge = Callable[[PlanStep, PlanStep], Optional[int]]
JUDGED_RIVALS = 2  # rival outputs a disputed winner is judged against, at most (one or two calls each)
RunStep = Callable[..., Optional[Fix]]  # run_step(step, final=False): runs it; returns a fix to run instead


@dataclass
class AttemptOutcome:
    steps: List[PlanStep] = field(default_factory=list)  # every command that ran, in order
    winner: Optional[PlanStep] = None
    # "greedy" (confirmed or not) | "vote" (the greedy one failed) | "retry" | "judged" (a disputed rival the
    # judge picked in both orders) | "doubted" (no sound command found anything; a doubted one did) |
    # "unchanged" (nothing found anything; a write ran and changed nothing) | "after_write" (the read drawn after
    # a write that printed nothing, for a goal that asks a quantity: CommandAttempt.after_write) | "" (nothing found)
    decided_by: str = ""
    vote: Optional[SampleRun[PlanStep]] = None
    retries: int = 0
    no_command: List[str] = field(default_factory=list)  # why draws produced no command
    # A command refused because it writes and the run may only read: no other draw can change that.
    write_refused: Optional[PlanStep] = None
    drawn: int = 0  # model calls asked for a command, failed and repeated ones included
    redrawn: int = 0  # retries that repeated a command already run and were drawn again, hotter
    # The winner is short (a count, a name: at most confirm_lines lines) and was put to a vote to confirm it.
    checked: bool = False
    # Each judgement of a disputed winner against a rival: the two commands, the picks in both orders, whether it switched.
    judged: List[Dict[str, object]] = field(default_factory=list)

    @property
    def found_nothing(self) -> bool:
        """Commands ran, and every one that worked found nothing."""
        return self.winner is None and any(ran_well(s) for s in self.steps)

    @property
    def agreed(self) -> int:
        """How many drawn commands printed the winner's output (1 for a lone command)."""
        if self.winner is None:
            return 0
        if self.vote is not None:
            for c in self.vote.clusters:
                if self.winner in c.members:
                    return c.size
        return 1

    @property
    def agreed_another_way(self) -> int:
        """How many drawn commands printed the winner's output reading it another way: the winner, plus one
        for each first stage among the others that reads unlike the winner's and each other's (``reads_alike``:
        quoting, option order and `./` do not make another way). A command that repeats the
        winner's search and only counts or cuts it differently repeats whatever that search got wrong
        (measured on AgentBench OS at bd99fa4: `grep -rn error a.log b.log | grep -v X | wc -l`
        "confirmed" by the same search and filter with one more stage, both wrong, ended ``success``)."""
        if self.winner is None:
            return 0
        if self.vote is not None:
            for c in self.vote.clusters:
                if self.winner in c.members:
                    ways: List[PlanStep] = []  # one member for each way of reading other than the winner's
                    for m in c.members:
                        if m is not self.winner and not any(reads_alike(m, w) for w in [self.winner] + ways):
                            ways.append(m)
                    return 1 + len(ways)
        return 1

    @property
    def outputs_found(self) -> int:
        """Distinct non-empty outputs among the voted commands."""
        if self.vote is None:
            return 1 if self.winner is not None else 0
        return len([c for c in self.vote.clusters if c.key not in self.vote.empty_keys])

    @property
    def confirmed(self) -> bool:
        """At least two drawn commands printed the winner's output, reading it in different ways
        (``agreed_another_way``; a judged winner was disputed, whatever its cluster: the commands
        disagreed, and the judge's reading is not a second output)."""
        return self.winner is not None and self.agreed_another_way >= 2 and self.decided_by != "judged"

    @property
    def disputed(self) -> bool:
        """Voted commands found different things and no two agreed: the answer rests on one of them."""
        return self.decided_by == "judged" or (self.winner is not None and self.vote is not None
                                                 and self.outputs_found >= 2 and self.agreed < 2)

    @property
    def unconfirmed(self) -> bool:
        """A winner that no second command reproduced and none contradicted: a short one (a count, a name:
        one pipe's output, which a wrong pipe prints as plausibly as a right one), or any read found only
        after the greedy command failed, by the one sample or retry that worked (measured on AgentBench OS
        and NL2Bash at 89b7b60 and ff58d1f: each of the 4 such long outputs that ended ``success`` was wrong)."""
        after_failure = self.decided_by in ("vote", "retry", "after_write") and not changes(self.winner)
        return (self.checked or after_failure) and not self.confirmed and not self.disputed

    def confidence(self) -> float:
        """A stated confidence, from how the winner was chosen: the share of usable drawn commands that
        printed the winner's output when two or more did (at most 0.9); one unconfirmed command 0.6, a
        retry after failures or a read after a write 0.5; a disputed one 1 / the commands that found something."""
        if self.winner is None:
            return 0.0
        voted = len(self.vote.samples) if self.vote else 1
        if self.confirmed:
            return round(min(0.9, self.agreed_another_way / max(voted, 1)), 3)
        if self.disputed:
            return round(1 / max(voted, 2), 3)
        return 0.5 if self.decided_by in ("retry", "after_write") else 0.6

    def summary(self) -> str:
        """One line for the answer's caveat when the winner is weak: "3 commands printed different outputs"."""
        if self.winner is None:
            return f"{len(self.steps)} command{'s' if len(self.steps) != 1 else ''} ran, none found anything"
        if self.decided_by == "unchanged":
            return "the command ran and changed nothing: what it would create or change was already there"
        if self.decided_by == "doubted":
            return ("this answer rests on a search for the text of a path (it finds the files that mention the "
                    "name); no command that reads the path itself worked")
        if self.disputed:
            basis = ("the one the model, reading the commands side by side in both orders, said computes the goal"
                     if self.decided_by == "judged" else "the first of them")
            return (f"{len(self.vote.samples)} commands printed {self.outputs_found} different outputs; "
                    f"this answer rests on {basis}")
        if self.unconfirmed and self.agreed >= 2:
            return (f"the commands that printed the same output all read it with `{first_stage_of(self.winner)}`; "
                    "none found it another way")
        if self.unconfirmed and self.vote is None:
            return "this answer rests on one command; no other command was run to check it"
        if self.unconfirmed:
            return "no second command printed the same output; this answer rests on one command"
        return ""

    def rivals(self, limit: int = 3) -> List[PlanStep]:
        """The first command of each other output the vote found (not the winner's, not an empty one):
        what a disputed answer shows beside its own basis, so the user can judge."""
        if self.vote is None or self.winner is None:
            return []
        return [c.representative for c in self.vote.clusters
                if c.key not in self.vote.empty_keys and self.winner not in c.members][:limit]

    def to_meta(self) -> Dict[str, object]:
        return {"decided_by": self.decided_by or "none", "ran": len(self.steps), "retries": self.retries,
                "drawn": self.drawn, "redrawn": self.redrawn,
                "agreed": self.agreed, "agreed_another_way": self.agreed_another_way, "outputs": self.outputs_found,
                "disputed": self.disputed,
                "confirmed": self.confirmed, "unconfirmed": self.unconfirmed,
                "found_nothing": self.found_nothing, "write_refused": self.write_refused is not None,
                "judged": list(self.judged),
                "commands": [s.tool_call.args.get("command") for s in self.steps if s.tool_call],
                # each command in the order it ran: what its run gave and the start of what it printed, so a
                # reader sees the outputs the winner was chosen among (the trace has each process, not its output)
                "draws": [{"command": s.tool_call.args.get("command"), "kind": kind_of(s),
                           "output": draw_output(s), "won": s is self.winner}
                          for s in self.steps if s.tool_call]}


class CommandAttempt:
    def __init__(self, ask_command: AskCommand, run_step: RunStep, feedback: Callable[[PlanStep], str], *,
                 samples: int = 3, quorum: int = 2, retries: int = 2, confirm_lines: int = CONFIRM_LINES,
                 cross_checks: int = CROSS_CHECKS, cross_check_draws: int = CROSS_CHECK_DRAWS,
                 judge: Optional[Judge] = None, tell_samples: bool = True):
        if samples < 0 or retries < 0 or quorum < 1 or confirm_lines < 0 or cross_checks < 0 or cross_check_draws < 0:
            raise ValueError("samples, retries, confirm_lines, cross_checks and cross_check_draws must be >= 0, "
                             f"quorum >= 1 (got {samples}, {retries}, {confirm_lines}, {cross_checks}, "
                             f"{cross_check_draws}, {quorum})")
        self.ask_command = ask_command
        self.run_step = run_step
        self.feedback = feedback
        self.samples = samples
        self.quorum = quorum
        self.retries = retries
        self.confirm_lines = confirm_lines
        self.cross_checks = cross_checks
        self.cross_check_draws = cross_check_draws
        self.judge = judge
        self.tell_samples = tell_samples

    def attempt(self, description: str) -> AttemptOutcome:
        out = self._attempt(description)
        if out.disputed and self.judge is not None:
            self._judge(out)
        return out

    def _judge(self, out: AttemptOutcome) -> None:
        """Read the winner beside each rival in both orders; a rival both readings pick becomes the winner."""
        for rival in out.rivals(JUDGED_RIVALS):
            kept = out.winner
            picks = [self.judge(kept, rival)]
            if picks[0] == 2:  # only a first reading for the rival can switch: the second costs a call only then
                picks.append(self.judge(rival, kept))
            switched = picks == [2, 1]
            out.judged.append({"kept": kept.tool_call.args.get("command"), "rival": rival.tool_call.args.get("command"),
                               "picks": picks, "switched": switched})
            if switched:
                out.winner, out.decided_by = rival, "judged"

    def _attempt(self, description: str) -> AttemptOutcome:
        out = AttemptOutcome()
        ran: Dict[str, PlanStep] = {}
        greedy = self._draw("", False, description, out, ran)
        if sound(greedy):
            out.winner, out.decided_by = greedy, "greedy"
            self._confirm(greedy, "greedy", description, out, ran)
            return out
        if greedy is not None and refused_write(greedy):
            out.write_refused = greedy  # the goal asks for a write: a vote or a retry cannot make it
            return out
        if self.samples and not changes(greedy):
            # Each sample is told what the greedy command's run showed, as a retry is: drawn blind, samples
            # repeat its mistake (AgentBench OS test-42 at 52a8250: a count of files for a count of lines,
            # drawn again among the samples and voted). ``tell_samples=False`` draws them blind, as MBR-exec
            # does: measured level in passes for 29 % fewer tokens at 2d90789 (docs/DECISIONS.md).
            told = self._told(greedy, out) if greedy is not None and self.tell_samples else ""
            self._vote(greedy, "greedy", False, description, out, ran, told=told)
            if out.winner is not None:
                return out  # one sample's read after the greedy command failed: ``unconfirmed`` unless agreed
        for r in range(self.retries):
            last = self._last_unusable(out)
            if last is None:
                break
            out.retries += 1
            feedback = self._told(last, out)
            # Greedy on the first retry (the feedback changes the prompt); sampled after, since a
            # greedy model shown the same facts tends to write the same command again.
            before = len(out.steps)
            step = self._draw(feedback, r > 0, description, out, ran)
            if step is not None and len(out.steps) == before:  # a command already run: nothing new was tried
                step = self._redraw(step, feedback, description, out, ran)
            if sound(step):
                out.winner, out.decided_by = step, "retry"
                self._confirm(step, "retry", description, out, ran)
                return out
        if not out.steps and out.no_command:
            raise StopRun("command_generation_failed", out.no_command[-1])
        read_doubted = [s for s in out.steps if usable(s) and doubted(s)]
        unchanged = [s for s in out.steps if unchanged_write(s)]
        if read_doubted:  # its output is still the best evidence there is, answered as one unconfirmed command
            out.winner, out.decided_by, out.checked = read_doubted[0], "doubted", True
        elif unchanged:  # the goal may only have asked for what already is
            out.winner, out.decided_by = unchanged[0], "unchanged"
        return out

    def _confirm(self, first: PlanStep, label: str, description: str, out: AttemptOutcome,
                 ran: Dict[str, PlanStep]) -> None:
        """Put a short output (a count, a name) to a vote of commands written another way; with no
        cross-check draw it is marked as resting on one command (``unconfirmed``), unchecked."""
        if (self.samples and self.cross_checks and self.confirm_lines and not changes(first)
                and is_short(first, self.confirm_lines)):
            out.checked = True
            if self.cross_check_draws:
                self._vote(first, label, True, description, out, ran)  # confirm or dispute it

    def _told(self, step: PlanStep, out: AttemptOutcome) -> str:
        """What a draw after ``step`` is told: what a person would read of its run, and the commands tried."""
        return "\n\n" + prompts.section("command_followup", "retry", feedback=self.feedback(step),
                                         tried=listed(out.steps))

    def _vote(self, first: Optional[PlanStep], label: str, cross_check: bool, description: str,
              out: AttemptOutcome, ran: Dict[str, PlanStep], told: str = "") -> None:
        """Draw samples beside ``first`` and keep the output most distinct commands printed: ``first``
        on a tie (it was drawn first), never a failed or empty one; each draw is told ``told``. With
        ``cross_check`` each draw is asked for a command written another way than those already run,
        and ``first`` stays the winner whatever they print: they can confirm it or dispute it, not
        replace it, so the vote ends once ``cross_checks`` of them printed something."""
        voted = set()
        checks = []  # cross-check draws that printed something

        def draw(i: int) -> Optional[PlanStep]:
            if i == 0:  # the first command is the vote's first sample: no second call
                if not ran_well(first) or doubted(first):
                    return None
                voted.add(id(first))
                return first
            if any(changes(s) and s.status == StepStatus.SUCCESS for s in out.steps):
                raise StopSampling  # a sampled command changed the project: that change is the result
            if cross_check and len(checks) >= self.cross_checks:
                raise StopSampling  # enough other commands printed something to confirm or dispute
            feedback = "\n\n" + prompts.section("command_followup", "cross_check",
                                                 tried=listed(out.steps)) if cross_check else told
            step = self._draw(feedback, True, description, out, ran)
            if not ran_well(step) or doubted(step) or id(step) in voted or states_itself(step):
                return None  # failed, a command already voted (the same pipe again), or an echo
            voted.add(id(step))
            if not found_nothing(step):
                checks.append(step)
            return step

        draws = min(self.samples, self.cross_check_draws) if cross_check else self.samples
        out.vote = adaptive_sample(draw, output_key, k_max=1 + draws, quorum=self.quorum, empty=found_nothing)
        if cross_check:
            return  # the winner is already ``first``; the vote says how far other commands bear it out
        best = out.vote.best
        if best is not None and not out.vote.best_is_empty:
            out.winner = best.representative
            out.decided_by = label if best.representative is first else "vote"

    def after_write(self, description: str, out: AttemptOutcome, draws: int = 2) -> Optional[PlanStep]:
        """A command for what the goal asks to find, count or compute, after ``out.winner`` changed the
        project and printed nothing: the write was one part of a goal that asks a quantity (measured on
        AgentBench OS at dd1a5f0: `touch log_files/log{1..10}` and `mkdir -p problem_directory/dir1 …` won,
        and the answers' counts rested on no output). The first of at most ``draws`` that read something
        (greedy, then sampled), or None: never a write, an ``echo``, or a command already run."""
        feedback = "\n\n" + prompts.section("command_followup", "after_write",
                                             command=out.winner.tool_call.args.get("command"), tried=listed(out.steps))
        ran = {same_command(str(s.tool_call.args.get("command"))): s for s in out.steps if s.tool_call}
        for draw in range(draws):
            before = len(out.steps)
            step = self._draw(feedback, GREEDY if draw == 0 else SAMPLED, description, out, ran)
            if len(out.steps) > before and a_read(step) and not doubted(step):
                return step
        return None

    def compute(self, description: str, out: AttemptOutcome, draws: int = 2) -> Optional[PlanStep]:
        """A command that prints the number the answer needs from what ``out.winner`` printed
        (reasoning_v30/computed.py): the first of at most ``draws`` that ran well and printed one
        number, else None. The first draw is greedy; one that printed lines instead is shown so and the
        next is sampled (measured at bd4e7e3: asked for a total, the greedy draw ran the winner's grep
        again with another option). Never an ``echo`` or ``expr`` (it states a number), a command already run, or
        a write (a draw runs like any other of the run; with --yes one may write, and is then no answer)."""
        winner = out.winner
        feedback = "\n\n" + prompts.section("command_followup", "compute",
                                             command=winner.tool_call.args.get("command"),
                                             lines=plural(output_lines(winner), "line"))
        ran = {same_command(str(s.tool_call.args.get("command"))): s for s in out.steps if s.tool_call}
        for draw in range(draws):
            before = len(out.steps)
            step = self._draw(feedback, GREEDY if draw == 0 else SAMPLED, description, out, ran)
            if len(out.steps) == before or not a_read(step):
                continue
            if computed_number(step) is not None:
                return step
            if printed_number(step) is not None:
                continue  # a 0: drawn again, sampled
            feedback += "\n" + prompts.section("command_followup", "not_one_number",
                                                command=step.tool_call.args.get("command"),
                                                lines=plural(output_lines(step), "line"))
        return None

    def _redraw(self, repeated: PlanStep, feedback: str, description: str, out: AttemptOutcome,
                ran: Dict[str, PlanStep]) -> Optional[PlanStep]:
        """A retry that wrote a command already run is drawn once more, hotter, told which command it
        repeated: shown the same facts, a small model tends to write the same command again, greedy or
        sampled (AgentBench OS test-52 at 89b7b60: one failing `mkdir` on all five draws)."""
        out.redrawn += 1
        again = feedback + "\n" + prompts.section("command_followup", "repeated",
                                                  command=repeated.tool_call.args.get("command"))
        return self._draw(again, HOTTER, description, out, ran)

    def _last_unusable(self, out: AttemptOutcome) -> Optional[PlanStep]:
        """The command to show the retry: the last one that failed, found nothing or is doubted."""
        for step in reversed(out.steps):
            if not sound(step):
                return step
        return None

    def _draw(self, feedback: str, heat: int, description: str, out: AttemptOutcome,
              ran: Dict[str, PlanStep]) -> Optional[PlanStep]:
        i = out.drawn  # the draw's index (its seed when sampling is seeded)
        out.drawn += 1
        try:
            command = self.ask_command(feedback, i, heat)
        except StopRun as stop:
            if stop.reason in FATAL_STOPS or isinstance(stop, BudgetSpent):
                raise
            out.no_command.append(stop.message)
            return None
        seen = ran.get(same_command(command))
        if seen is not None:  # the same command again: a vote for its output, not a second run
            return seen
        step = self._run(command, description, len(out.steps) + 1, out)
        ran[same_command(command)] = step
        return step

    def _run(self, command: str, description: str, num: int, out: AttemptOutcome) -> PlanStep:
        step = PlanStep(num=num, description=description, tool_call=ToolCall("shell", {"command": command}))
        fix = self.run_step(step)
        out.steps.append(step)
        if fix is None:
            return step
        # A mend ragix found itself (a close file name, a search over the project, a substitution as
        # xargs) runs at once, without asking the model again; its note or aside says so.
        again = PlanStep(num=num + 1, description=fix.note,
                         tool_call=ToolCall("shell", {"command": fix.command, fix.key: fix.note}))
        self.run_step(again, final=True)
        out.steps.append(again)
        return again
