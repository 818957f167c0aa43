"""Pipelines whose shape shows they cannot compute what they were written for, whatever the goal says.

One shape so far, measured (issue 34, paraphrase set at dff3bdd): `find ... | wc -l | sort -nr | head -n 1`
for "which Python file is the longest?". `wc` given no file reads the pipe and prints one number (how many
lines it was given: the paths `find` printed), so the `sort` after it orders a single line and ranks
nothing. 6 of the main path's 60 paraphrase runs ran such a pipe, 5 of them ended wrong (three with a bare
count "confirmed" by another count of files). The check reads the command's stages only, never the goal:
a command of this shape is reported as a mistake and retried with the explanation as its feedback
(InterCode's execution feedback; SWE-agent's explicit messages), like a command that failed.

A second shape needs the files: a listing of paths (`find`, `ls`, `grep -l`) whose one operand is a regular
file, counted by `wc`. It prints 1 (or 0) whatever the file holds; the model wrote
`find sqlparse/engine/grouping.py -type f | wc -l` for "how many lines does grouping.py have?" (paraphrase set,
02fcfb1). With no root given, only the first shape is looked for.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import List, Optional

from ragix_core.core.types import PlanStep
from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

from .steps import shown_command

__all__ = ["pipe_mistake", "step_mistake"]

# Stages that rank or group lines: on one line they do nothing, which says the pipe was meant to rank files.
# (`head`/`tail` after a count are harmless: `cat FILE | wc -l | head -1` is a right count.)
_RANKING = ("sort", "uniq")



def _counts_its_input(stage: List[str]) -> bool:
    """`wc` with counting options only: it reads the pipe and prints one number per count asked."""
    if stage_program(stage) != "wc" or len(stage) < 2:
        return False
    options = stage[1:]
    return all(w.startswith("-") and w != "-" and not w.startswith("--files0-from") for w in options)


def _listed_operands(stage: List[str]) -> Optional[List[str]]:
    """The operands of a stage that prints paths, one a line: find's starting points, ls's operands, the files
    of a `grep -l` that does not recurse. None for any other stage (or a listing of the working directory)."""
    program, words = stage_program(stage), stage[1:]
    if program == "find":
        starts = []
        for w in words:
            if w.startswith(("-", "(", "!")) or w in ("(", "!"):
                break
            starts.append(w)
        return starts or None
    if program == "ls":
        if any(w.startswith("-") and set(w[1:]) & set("dR") for w in words):
            return None  # -d lists the directories themselves, -R their trees: not this shape
        return [w for w in words if not w.startswith("-")] or None
    if program in ("grep", "egrep", "fgrep"):
        g = read_grep(words)
        recursive = set(g.flags) & set("rR") or {"--recursive", "--dereference-recursive"} & set(g.long_names)
        if "l" not in g.flags and "--files-with-matches" not in g.long_names or recursive:
            return None
        return [str(w) for w in g.operands] or None
    return None


def _counts_one_file(stages: List[List[str]], root: Path) -> Optional[str]:
    """One regular file listed, then counted. (Several files listed and counted is a count of the ones that
    exist or match: `grep -l TODO FILE1 FILE2 | wc -l` answers "how many of them mention TODO?".)"""
    for i, stage in enumerate(stages[:-1]):
        operands = _listed_operands(stage)
        if not operands or len(operands) != 1 or not os.path.isfile(os.path.join(root, operands[0])):
            continue
        if any(_counts_its_input(s) for s in stages[i + 1:]):
            return (f"`{stage_program(stage)}` was given `{operands[0]}`, which is a file, so it printed at most that "
                    "path and `wc` counted the paths, not what the file holds. To read a file's contents, give the "
                    "file to the command that reads it.")
    return None


def step_mistake(step: PlanStep) -> Optional[str]:
    """The mistake recorded when the step ran (its result's ``mistake``, found with the files at hand),
    else what the command's shape alone shows."""
    recorded = step.result.mistake if step.result is not None else None
    return recorded or pipe_mistake(shown_command(step))


def pipe_mistake(command: str, root: Optional[Path] = None) -> Optional[str]:
    """What is wrong with ``command``'s shape, as a sentence for the model's next request; None if nothing is.
    ``root``: the directory the command ran in, for the shapes that depend on what its operands are."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if root is not None:
        why = _counts_one_file(stages, root)
        if why:
            return why
    for i, stage in enumerate(stages[1:], start=1):
        if not _counts_its_input(stage):
            continue
        after = [stage_program(s) for s in stages[i + 1:] if stage_program(s) in _RANKING]
        if after:
            return (f"`{' '.join(stage)}` read the lines piped into it and printed one number (how many lines "
                    f"the stages before it printed), so the `{after[0]}` after it had a single line to rank. "
                    "To count the lines of each file, the files themselves must reach `wc` (through `xargs`), "
                    "not the list of their names.")
    return None
