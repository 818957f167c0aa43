"""A number the writer computed from a long output is computed by a command instead.

The main path answers from the winning command's output. When that output is many lines and the
answer is a number no line shows (a count of the lines that match something, a total of a column),
the writer did the arithmetic, and a 1.5B model adds and counts badly: measured on AgentBench OS
and NL2Bash at 0822586, such derived numbers were the largest group of wrong answers that ended
``success`` (a total of minutes "100" summed by eye from `grep -rn` over a directory, where the
files add up to 230). A command counts and adds exactly, so one more command is asked for, told how
many lines the winner printed but not the number the writer gave (it would be pasted into an
``echo``). Its number replaces the writer's when they differ; the run then rests on that one
command and says so (``unconfirmed``), as it does when no command printed a number. When the two
agree, two different routes gave one number and the answer stands.

Only when the goal asks for a quantity (core/asks.py): elsewhere a number no line shows is an aside (a
size in KB beside the name of the largest file, a year), and a command computing the goal's quantity
would put a count in its place. Only one derived number is computed (an answer stating several is left
to the numbers check), never one with a scaled unit (KB, %), and only from an output longer than
``voting.confirm_lines``: a difference of two numbers a short output shows ("longer by 7 lines") is
arithmetic the writer does well enough. A disputed run is left as it is: its caveat already says the
commands disagree. A compute draw is run like any other draw of the run (with --yes it may write); the
answer never rests on a write.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Dict, Optional

from ragix_core.core.asks import asks_quantity
from ragix_core.core.types import PlanStep
from ragix_core.evidence.numbers import derived_numbers
from ragix_core.evidence.steps import shown_command, step_output

__all__ = ["printed_number", "computed_number", "output_lines", "plural", "number_to_compute", "Computed"]

# One number and nothing else: what `wc -l < F`, `grep -c` and `... | wc -l` print.
_BARE_NUMBER = re.compile(r"[+-]?\d+(?:\.\d+)?")


def printed_number(step: Optional[PlanStep]) -> Optional[str]:
    """The step's output when it is one bare number (measured at d39291a: the writer answered such an
    output with the number alone, so the main path answers it without a model call)."""
    if step is None:
        return None
    out = step_output(step)
    return out if _BARE_NUMBER.fullmatch(out) else None


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def computed_number(step: Optional[PlanStep]) -> Optional[str]:
    """The one number ``step`` printed, unless 0: after the writer read a number off many lines, a command
    printing 0 (`grep -c` of a pattern that matched nothing) far more often missed than computed."""
    n = printed_number(step)
    return None if n is None or float(n) == 0 else n


def output_lines(step: PlanStep) -> int:
    """The non-blank lines ``step`` printed."""
    out = (step.result.stdout or "") if step.result is not None else ""
    return sum(1 for line in out.splitlines() if line.strip())


# A number followed by a scaled unit or a percent: a command prints bytes or a ratio, so its number would not
# stand in the writer's place ("about 57 KB" is no count of anything).
_SCALED = r"\s*(?:[KMGTP]i?B?|[kmgtp]B|%|percent)\b"


def number_to_compute(goal: str, answer: str, winner: PlanStep, min_lines: int) -> Optional[str]:
    """The one number ``answer`` states that the writer derived from ``winner``'s output of more than
    ``min_lines`` lines, when the goal asks for a quantity; else None (no such number, several, one with a
    scaled unit, a short output, or a goal that asks for something else, where the number is an aside:
    "big.txt is the largest, about 57 KB" answers "which file is the largest?")."""
    if output_lines(winner) <= min_lines or not asks_quantity(goal):
        return None
    derived = derived_numbers(goal, answer, [winner])
    if len(derived) != 1 or re.search(r"(?<![\w.,])" + re.escape(derived[0]) + r"(?:\.\d+)?" + _SCALED, answer):
        return None
    return derived[0]


@dataclass
class Computed:
    """The writer's derived number and the command asked to compute it (None: no command printed one number)."""

    derived: str
    winner: PlanStep
    step: Optional[PlanStep]

    @property
    def number(self) -> Optional[str]:
        return computed_number(self.step)

    @property
    def agrees(self) -> bool:
        n = self.number
        return n is not None and float(n) == float(self.derived)

    def answer(self, written: str) -> str:
        """``written`` with the writer's number replaced by the command's (as it stands when they agree
        or no command printed one)."""
        n = self.number
        if n is None or self.agrees:
            return written
        return re.sub(r"(?<![\w.,])" + re.escape(self.derived) + r"(?![\w.,]*\w)", n, written)

    def caveat(self) -> str:
        """What the user is told when the answer's number rests on one command, or on the writer alone."""
        lines = output_lines(self.winner)
        source = f"the {plural(lines, 'line')} `{shown_command(self.winner)}` printed"
        if self.number is None:
            return (f"the model computed {self.derived} from {source}; no command printed that number, so it "
                    "rests on the model's arithmetic")
        return (f"{self.number} was computed by `{shown_command(self.step)}` from {source}; the model's own "
                f"reading of them gave {self.derived}. No second command confirmed it")

    def to_meta(self) -> Dict[str, object]:
        return {"derived": self.derived, "number": self.number, "agrees": self.agrees,
                "command": self.step.tool_call.args.get("command") if self.step and self.step.tool_call else None}
