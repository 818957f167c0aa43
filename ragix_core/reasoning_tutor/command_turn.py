"""The player's command as free text, on the turns where a JSON move was measured to fail.

Measured (issue 34, the first wording of 8 questions nobody here wrote, over sqlparse's source): the
tutor lost 0/8 to the plain call's 7/8. On a goal with no obligations the player, decoding a JSON move,
proposed `ls -1 *.py` with the intent "WHY" (the prompt's placeholder), then the same command five turns
running, each rejected as a repetition, even sampled at 0.6 with the rejection named in its prompt. For
this model a command taken from the first code block of a free answer scored 0.50 on NL2SH against 0.06
under constrained decoding (arXiv 2502.06858). So on three kinds of turn the engine asks the player the
main path's own command request (llm/command_prompt.py), followed by the commands the game
already ran and what they gave, and plays the first fenced command as the player's PROPOSE:

- after a PROPOSE rejected as a repetition, in any game: the rejection changes what the model is asked;
- in a game without obligations, when no claim is held, the tutor has no complete move to suggest and the
  last command (if any) failed or found nothing (printed nothing, or a pipe counted 0): what the player needs
  is evidence, and a command is all it has to write;
- in such a game, after a command printed a short answer (at most 3 lines) that no rule read and no other
  command bears out: a command written another way (the main path's cross-check). When the two agree, the
  output is suggested as the answer (suggest.printed_claim).

After a command that printed what the tutor could not turn into a suggestion (a long listing), the JSON player
moves: it may answer from that output with `output` claims, or propose another command.

The tutor judges that PROPOSE like any other; what counts as proof does not change. Games with
obligations keep their JSON PROPOSE otherwise (the tutor's own tasks, 10/12 that way, docs/RESULTS.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, List, Optional, Sequence, Tuple

from ragix_core import prompts
from ragix_core.core.stop import StopRun
from ragix_core.core.text import bounded, one_line
from ragix_core.core.types import PlanStep
from ragix_core.evidence.feedback import execution_feedback
from ragix_core.evidence.path_hints import project_listing
from ragix_core.evidence.steps import found_nothing
from ragix_core.llm.command_prompt import ask_free_command, command_request
from ragix_core.reasoning_tutor.moves import MAX_ARG, Propose
from ragix_core.reasoning_tutor.rules import normalize_command
from ragix_core.reasoning_tutor.suggest import found_nothing_here, misread_here, unconfirmed_output
from ragix_core.reasoning_tutor.tutor import REJECTED
from ragix_core.tools.model_commands import describe

__all__ = ["CommandTurns", "REPETITION", "EVIDENCE", "CROSS_CHECK"]

PROMPT = "tutor_command"
REPETITION = "repetition"  # the last move was a PROPOSE rejected as a repetition
EVIDENCE = "evidence"  # no obligations, nothing held, nothing complete to suggest: the player needs a command
CROSS_CHECK = "cross_check"  # a short output no other command bears out yet: a command written another way
MAX_TRIED = 8  # commands listed back to the model; a game has at most a few dozen turns
RESAMPLE_TEMPERATURE = 0.6  # a cross-check, and the first redraw of a command already proposed or too long
STEP, MAX_TEMPERATURE = 0.3, 1.2  # redraws at 0.6, 0.9, 1.2
REDRAWS = 2  # redraws within one turn of a command already proposed or too long: each costs one short call


class CommandTurns:
    """Decides which turns are command turns and asks the player for their command."""

    def __init__(self, worker: Any, tools: Sequence[str], root: Path, listing_chars: int,
                 probe: Optional[Callable[[str], Any]] = None, home_is_root: bool = False) -> None:
        """``probe``: a read-only shell with which a pipeline that printed nothing is run a stage at a time
        for the feedback (evidence/emptied.py); None: the feedback says only that it printed nothing.
        ``home_is_root``: the tools read ``~`` as the project root (tools/home.py), and the request says so."""
        self.worker = worker
        self.home_is_root = home_is_root
        self.probe = probe
        self.tools = list(tools)
        self.root = Path(root)
        self.listing_chars = listing_chars
        self._request: Optional[Tuple[str, str]] = None  # (goal, its request): one game's listing is read once

    @staticmethod
    def reason(game: Any, suggestion: Any) -> Optional[str]:
        """Why this turn's move is a free-text command (REPETITION, EVIDENCE, CROSS_CHECK), or None for a
        JSON move."""
        last = game.verdicts[-1] if game.verdicts else None
        if last is not None and last.move == "PROPOSE" and last.status == REJECTED and last.kind == "repetition":
            return REPETITION
        if game.settings.accept or game.pending or suggestion.moves:
            return None
        # After a command that printed something the tutor could not suggest an answer from (a listing
        # longer than a short output), the JSON player gets the turn: it sees that output and may answer
        # from it with `output` claims, or propose another command.
        seen = game.graph.of_kind("observation")
        if (seen and seen[-1].data.get("status") == "ok" and not found_nothing_here(seen[-1])
                and not misread_here(seen[-1])):
            return CROSS_CHECK if unconfirmed_output(game) else None
        return EVIDENCE

    def request(self, goal: str) -> str:
        """The main path's command request for ``goal``, built once a goal (its listing is read once)."""
        if self._request is None or self._request[0] != goal:
            listing = project_listing(self.root, self.listing_chars)
            self._request = (goal, command_request(goal, self.tools, listing, describe(self.tools),
                                                   home_is_root=self.home_is_root))
        return self._request[1]

    def followup(self, game: Any, steps: Sequence[PlanStep], reason: Optional[str] = None) -> str:
        """What the game already ran and what each gave; for the last one that failed or printed nothing,
        what a person would read (evidence/feedback.py); on a CROSS_CHECK turn, the request for a command
        written another way (what was printed is not shown: the model would copy it into an `echo`).
        "" before the first command."""
        tried = _tried(game)
        if not tried:
            return ""
        if reason == CROSS_CHECK:
            return "\n\n" + prompts.section(PROMPT, "cross_check", tried="\n".join(tried)).rstrip()
        last = steps[-1] if steps else None
        feedback = ""
        if last is not None and last.result is not None and (not last.result.ok or found_nothing(last)
                                                             or last.result.mistake or last.result.doubt):
            feedback = execution_feedback(last, self.root, probe=self.probe)
        return "\n\n" + prompts.section(PROMPT, "followup", tried="\n".join(tried), feedback=feedback).rstrip()

    def propose(self, game: Any, steps: Sequence[PlanStep], temperature: Optional[float],
                reason: Optional[str] = None) -> Propose:
        """The player's command as a PROPOSE. A command the game already proposed, or one longer than a move
        holds (MAX_ARG), is drawn again (REDRAWS times at most, sampled, hotter each time); StopRun
        ``command_generation_failed`` when a reply has no command or the last is still too long (measured on
        an unseen question: a greedy command degenerated into a pipe of `grep -v` stages). A command still
        repeated after the redraws is proposed as it is: the tutor rejects it as a repetition."""
        prompt = self.request(game.goal) + self.followup(game, steps, reason)
        if reason == CROSS_CHECK:
            temperature = RESAMPLE_TEMPERATURE  # as the main path's cross-checks: a greedy draw repeats the pipe
        ran = _proposed(game)
        command = ""
        for _ in range(1 + REDRAWS):
            command = ask_free_command(self.worker, prompt, temperature=temperature)
            if len(command) <= MAX_ARG and normalize_command(command) not in ran:
                break
            # A command already proposed (measured: a cross-check turn wrote the command it was to check, then
            # six turns running, sampled at 0.6) or one too long for a move: drawn again, hotter each time.
            temperature = min(MAX_TEMPERATURE, max(temperature or 0.0, STEP) + STEP)
        if len(command) > MAX_ARG:
            raise StopRun("command_generation_failed", f"the player's command is longer than {MAX_ARG} "
                          f"characters: {bounded(command, 200)}")
        return Propose(move="PROPOSE", intent=prompts.section(PROMPT, "intent"), command=command, mode="read")


def _proposed(game: Any) -> set:
    """Every command the game already ran or refused, as rules read it (quoting and spacing aside: measured, a
    cross-check wrote the first command again with `"*.py"` for `'*.py'` and was played)."""
    return {normalize_command(n.label) for n in game.graph.of_kind("action")}


def _tried(game: Any) -> List[str]:
    """One line per distinct command the game ran or refused, in order: its exit code, how much it printed,
    or why it was refused."""
    refusals = {v.nodes[0]: v.reason for v in game.verdicts if v.move == "PROPOSE" and v.kind == "policy" and v.nodes}
    seen: dict = {}
    for node in game.graph.nodes.values():
        d = node.data
        if node.kind == "action" and node.id in refusals:
            seen[one_line(node.label, 200)] = one_line(refusals[node.id], 160)
        elif node.kind == "observation":
            lines = len((d.get("stdout") or "").splitlines())
            outcome = (f"exit {d.get('returncode')}" if d.get("status") == "failed"
                       else "printed nothing" if not lines
                       else f"printed {'more than ' if d.get('truncated') else ''}{lines} line(s)")
            seen[one_line(str(d.get("command") or ""), 200)] = outcome
    return [f"- `{command}`: {outcome}" for command, outcome in list(seen.items())[-MAX_TRIED:]]
