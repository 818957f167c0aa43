"""An output that is the answer as printed, so the main path states it without asking the writer.

`wc` prints one line per file, the count and the file's name (`544 sqlparse/engine/grouping.py`). When a command's
whole output is one such line, what a writer would say is settled: "FILE has N lines". That holds whether `wc` named
the file itself or got it from `xargs`, and whether the line came straight from `wc` or was picked out of its rows by
stages that only reorder or select whole lines (`sort -nr | head -n 1`, `grep -v total`): those keep each row as `wc`
printed it. `wc`'s `total` row is never read off (it is no file's), nor a row after a stage that rewrites rows (`awk`,
`cut`, `uniq -c`) or a `grep` that reads files of its own.

Measured at 40b91a0: 12 paraphrase runs ended on `wc` given one file, and the writer's call for each (about 100
prompt tokens computed and 4 s on one core) answered its number; at c1ef992, 9 more ended on a row picked by `sort |
head` or given by `xargs wc` (1,550 of the set's 24,962 tokens computed went to their writer's calls), and the
sentence made here gives the same verdict for all of them (docs/DECISIONS.md). One bare number is read off the same
way (computed.printed_number). Only the output's shape and the command's stages are read, never the goal.
"""

from __future__ import annotations

import re
from typing import List, Optional

from ragix_core.core.types import PlanStep
from ragix_core.evidence.steps import shown_command
from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

from .computed import plural

__all__ = ["wc_line_answer"]

# What `wc` counts, by its one option.
_COUNTS = {"-l": "line", "--lines": "line", "-w": "word", "--words": "word", "-c": "byte", "--bytes": "byte",
           "-m": "character", "--chars": "character"}
_WC_LINE = re.compile(r"\s*(\d+)\s+(\S.*?)\s*")
# xargs's options that take the next word as their value (tools/validate.py allows no others with a value).
_XARGS_VALUED = {"-n", "--max-args", "-I"}
# Stages after `wc` that print some of their input lines whole, in some order: the row read off is `wc`'s own.
_KEEPS_ROWS = {"sort", "head", "tail", "tac", "uniq"}
# Options that make such a stage print something else than whole input lines: uniq's counts, head's and tail's bytes.
_REWRITES = {
    "uniq": re.compile(r"^-(?!-)\w*c|^--count"),
    "head": re.compile(r"^-(?!-)\w*c|^--bytes"),
    "tail": re.compile(r"^-(?!-)\w*c|^--bytes"),
}
# grep reads the pipe and prints whole lines only with a pattern and none of these: a count, names, parts, numbers,
# context, or files of its own to read (-r, an operand).
_GREP_REWRITES = set("oclLnbHZqrRABC")
_GREP_KEEPS = {"--invert-match", "--extended-regexp", "--fixed-strings", "--basic-regexp", "--perl-regexp",
               "--ignore-case", "--word-regexp", "--line-regexp", "--regexp"}


def _wc_words(stage: List[str]) -> Optional[List[str]]:
    """The `wc` words of ``stage``: the stage itself, or what an `xargs` stage runs; None for any other stage."""
    if stage_program(stage) == "wc":
        return stage
    if stage_program(stage) != "xargs":
        return None
    i = 1
    while i < len(stage) and stage[i].startswith("-"):
        i += 2 if stage[i] in _XARGS_VALUED else 1
    return stage[i:] if i < len(stage) and stage_program(stage[i:]) == "wc" else None


def _keeps_rows(stage: List[str]) -> bool:
    program = stage_program(stage)
    if program in GREP_PROGRAMS:
        g = read_grep(stage[1:])
        given = bool(g.pattern) or "e" in g.flags or "--regexp" in g.long_names
        return (g.complete and given and not g.operands and not set(g.flags) & _GREP_REWRITES
                and set(g.long_names) <= _GREP_KEEPS)
    rewrites = _REWRITES.get(program)
    return program in _KEEPS_ROWS and (rewrites is None or not any(rewrites.match(w) for w in stage[1:]))


def wc_line_answer(step: Optional[PlanStep]) -> Optional[str]:
    """"FILE has N lines." when ``step``'s whole output is one row `wc` printed for a file, counted by one option (see
    the module docstring for which stages may stand after `wc`); else None."""
    if step is None or step.result is None or step.tool_call is None:
        return None
    try:
        stages = split_pipeline(shown_command(step))
    except Refusal:
        return None
    for at in range(len(stages) - 1, -1, -1):  # the last `wc`: what stands after it must keep its rows whole
        wc = _wc_words(stages[at])
        if wc is not None:
            break
    else:
        return None
    if not all(_keeps_rows(s) for s in stages[at + 1:]):
        return None
    options = [w for w in wc[1:] if w.startswith("-") and w != "--"]
    operands = [w for w in wc[1:] if not w.startswith("-")]
    if len(options) != 1 or options[0] not in _COUNTS:
        return None
    lines = [ln for ln in (step.result.stdout or "").splitlines() if ln.strip()]
    found = _WC_LINE.fullmatch(lines[0]) if len(lines) == 1 else None
    if found is None or found.group(2) == "total":
        return None
    if stage_program(stages[at]) == "wc" and found.group(2) not in operands:
        return None  # `wc` named its files, and this line is for none of them
    name = found.group(2).removeprefix("./")
    return f"{name} has {plural(int(found.group(1)), _COUNTS[options[0]])}."
