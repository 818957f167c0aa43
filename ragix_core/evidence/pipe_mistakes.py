"""Pipelines whose shape shows they cannot compute what they were written for, whatever the goal says.

One shape so far, measured (issue 34, paraphrase set at dff3bdd): `find ... | wc -l | sort -nr | head -n 1`
for "which Python file is the longest?". `wc` given no file reads the pipe and prints one number (how many
lines it was given: the paths `find` printed), so the `sort` after it orders a single line and ranks
nothing. 6 of the main path's 60 paraphrase runs ran such a pipe, 5 of them ended wrong (three with a bare
count "confirmed" by another count of files). The check reads the command's stages only, never the goal:
a command of this shape is reported as a mistake and retried with the explanation as its feedback
(InterCode's execution feedback; SWE-agent's explicit messages), like a command that failed.
"""

from __future__ import annotations

from typing import List, Optional

from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.refusal import Refusal

__all__ = ["pipe_mistake"]

# Stages that rank or group lines: on one line they do nothing, which says the pipe was meant to rank files.
# (`head`/`tail` after a count are harmless: `cat FILE | wc -l | head -1` is a right count.)
_RANKING = ("sort", "uniq")


def _program(stage: List[str]) -> str:
    return stage[0].rsplit("/", 1)[-1] if stage else ""


def _counts_its_input(stage: List[str]) -> bool:
    """`wc` with counting options only: it reads the pipe and prints one number per count asked."""
    if _program(stage) != "wc" or len(stage) < 2:
        return False
    options = stage[1:]
    return all(w.startswith("-") and w != "-" and not w.startswith("--files0-from") for w in options)


def pipe_mistake(command: str) -> Optional[str]:
    """What is wrong with ``command``'s shape, as a sentence for the model's next request; None if nothing is."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    for i, stage in enumerate(stages[1:], start=1):
        if not _counts_its_input(stage):
            continue
        after = [_program(s) for s in stages[i + 1:] if _program(s) in _RANKING]
        if after:
            return (f"`{' '.join(stage)}` read the lines piped into it and printed one number (how many lines "
                    f"the stages before it printed), so the `{after[0]}` after it had a single line to rank. "
                    "To count the lines of each file, the files themselves must reach `wc` (through `xargs`), "
                    "not the list of their names.")
    return None
