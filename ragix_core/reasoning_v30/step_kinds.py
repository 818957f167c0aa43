"""What kind of result a command of the main path gave: what the vote compares, and whether the step
may win, be voted on, or is a write (attempt.py reads these; compute and the follow-ups too)."""

from __future__ import annotations

import re
from typing import List, Optional

from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep, StepStatus
from ragix_core.evidence.pipe_mistakes import step_mistake
from ragix_core.evidence.steps import NO_MATCHES, found_nothing, step_output
from ragix_core.sampling import normalize_output, short_output_key
from ragix_core.tools.lexer import split_pipeline, stage_texts
from ragix_core.tools.refusal import Refusal

from .computed import output_lines

__all__ = ["CONFIRM_LINES", "output_key", "is_short", "same_command", "first_stage_of", "reads_alike", "states_itself",
           "listed", "ran_well", "doubted", "usable", "sound", "unchanged_write", "changes", "a_read", "STATES_ITSELF",
           "kind_of", "draw_output", "DRAW_OUTPUT_CHARS"]

CONFIRM_LINES = 3  # a greedy output of at most this many lines is confirmed by samples (voting.confirm_lines)
# What the attempt's record keeps of each command's output (or error): enough to see which output each draw
# printed beside the winner's, in `--json` and the evaluation reports, without copying long listings.
DRAW_OUTPUT_CHARS = 200


def output_key(step: PlanStep) -> str:
    """What the vote compares: the output up to layout (sampling.normalize_output). A short output
    that states numbers is compared by its numbers alone, so `wc -l main.c` ("42 main.c") and
    `wc -l < main.c` ("42") agree; other short outputs by their lines in any order."""
    r = step.result
    if r is None:
        return ""
    if r.no_match and not (r.stdout or "").strip():
        return NO_MATCHES
    text = normalize_output(r.stdout or "")
    return text if len(text.splitlines()) > CONFIRM_LINES else short_output_key(text)


def is_short(step: PlanStep, lines: int) -> bool:
    return output_lines(step) <= lines


def same_command(command: str) -> str:
    return re.sub(r"\s+", " ", command.strip())


# Programs that print what they are given: `expr 47` and `seq 47 47` state a number as `echo 47` does.
STATES_ITSELF = {"echo", "printf", "expr", "seq"}


def first_stage_of(step: PlanStep) -> str:
    """The first stage of the step's command as written, spacing normalised: what the command reads."""
    command = str(step.tool_call.args.get("command", "")) if step.tool_call else ""
    return same_command(stage_texts(command)[0])


def _reading_words(step: PlanStep) -> List[str]:
    """The first stage's words as the executor's lexer splits them, in any order: a program's own name, a word of
    one dash and letters letter by letter (`-rn` is `-r -n`; find's `-name` is split the same on both sides), a path
    without its `./` or trailing `/`. A stage the lexer refuses is its text, one word."""
    text = first_stage_of(step)
    try:
        words = [str(w) for w in split_pipeline(text)[0]]
    except Refusal:
        return [text]
    out: List[str] = []
    for i, w in enumerate(words):
        if i == 0:
            out.append(w.rsplit("/", 1)[-1])
        elif re.fullmatch(r"-[A-Za-z]{2,}", w):
            out.extend("-" + ch for ch in w[1:])
        else:
            if w.startswith("./"):
                w = w[2:] or "."
            out.append(w.rstrip("/") or w)
    return sorted(out)


def reads_alike(a: PlanStep, b: PlanStep) -> bool:
    """Two commands whose first stages read the same thing written differently: quoted another way, options
    in another order, `./src/` for `src`. A command that confirms another must read it another way, and these
    repeat the same search (found reading the code at 26f9e9f: `find . -name '*.py'` and `find . -name "*.py"`
    counted as two ways)."""
    return _reading_words(a) == _reading_words(b)


def states_itself(step: PlanStep) -> bool:
    """The command prints words it was given (``echo 47``) rather than anything it read."""
    command = step.tool_call.args.get("command", "") if step.tool_call else ""
    words = str(command).split()
    return bool(words) and words[0].rsplit("/", 1)[-1] in STATES_ITSELF


def listed(steps: List[PlanStep]) -> str:
    """The distinct commands that ran, for a follow-up request: "`a`; `b`"."""
    commands = [s.tool_call.args.get("command") for s in steps if s.tool_call]
    return "; ".join(f"`{c}`" for c in dict.fromkeys(commands))


def ran_well(step: Optional[PlanStep]) -> bool:
    """It ran, and its shape can compute something (evidence/pipe_mistakes.py)."""
    return step is not None and step.status == StepStatus.SUCCESS and step_mistake(step) is None


def doubted(step: Optional[PlanStep]) -> bool:
    """Its shape answers another question than the likely one (evidence/path_as_text.py)."""
    return step is not None and step.result is not None and bool(step.result.doubt)


def usable(step: Optional[PlanStep]) -> bool:
    return ran_well(step) and not found_nothing(step)


def sound(step: Optional[PlanStep]) -> bool:
    """It may win, and be voted on: usable and not doubted. A doubted step wins only when nothing sound did."""
    return usable(step) and not doubted(step)


def unchanged_write(step: Optional[PlanStep]) -> bool:
    """A write that ran and left the project as it was."""
    return (step is not None and step.status == StepStatus.SUCCESS and step.result is not None
            and step.result.writes and not step.result.changed)


def changes(step: Optional[PlanStep]) -> bool:
    """The command writes to the project: a vote would run several writes, so none is sampled."""
    return step is not None and step.result is not None and step.result.changed


def a_read(step: Optional[PlanStep]) -> bool:
    """A follow-up draw that read the project: usable, not a command that states its output (`echo 47`), and
    no write, whether or not it changed anything (compute's and after_write's draws answer, they do not act)."""
    return (usable(step) and not states_itself(step) and not changes(step)
            and not (step.result is not None and step.result.writes))


def kind_of(step: PlanStep) -> str:
    """What the step's run gave, in the words of the attempt's record: "refused" (ragix did not run it),
    "failed", "mistake" (it ran, but its shape cannot compute the goal: evidence/pipe_mistakes.py), "doubted",
    "empty" (nothing found: no output, a count of 0, no match), "wrote" (it changed the project), "unchanged" (a
    write that left the project as it was) or "read"."""
    r = step.result
    if r is not None and r.refused:
        return "refused"
    if step.status != StepStatus.SUCCESS:
        return "failed"
    if step_mistake(step) is not None:
        return "mistake"
    if doubted(step):
        return "doubted"
    if changes(step):
        return "wrote"
    if unchanged_write(step):
        return "unchanged"
    return "empty" if found_nothing(step) else "read"


def draw_output(step: PlanStep, limit: int = DRAW_OUTPUT_CHARS) -> str:
    """What the attempt's record shows of the step's run: why ragix refused it or why it failed (its error,
    else what it printed), else what it printed."""
    r = step.result
    if r is not None and (r.refused or step.status != StepStatus.SUCCESS):
        return bounded((r.error or r.stderr or r.stdout or "").strip(), limit)
    return step_output(step, limit=limit)
