"""A filter after a pipe, given a file that does not exist, made to read the pipe.

A stage after ``|`` that also names a file reads the file and ignores the pipe; when that file
does not exist, the model meant the pipe. Measured on the regression set at 7fdd634: `grep -rn
'maintainer' docs/*.md | cut -d: -f2 docs/maintainer.md` failed on the invented file, the
reflection replanned the same file and the run ended ``max_reflections``. A person would drop the
operand; so does ragix, once, when the missing path is a file operand (not an option's value) of
exactly one later stage whose program reads its input when given no file, and is written nowhere
else in the command. This module only rewrites the text: the result goes through the same lexer
and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional, Sequence, Tuple

from ragix_core.tools.lexer import split_pipeline
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import SPECS

__all__ = ["pipe_read_instead"]

# Programs of the tool specs that read standard input when they are given no file operand.
_FILTERS = {"cut", "awk", "sed", "sort", "head", "tail", "wc", "grep", "cat", "nl", "uniq", "rev"}


def pipe_read_instead(command: str, missing: Sequence[str]) -> Optional[Tuple[str, str]]:
    """``(command without the missing file operand, what ragix says)`` when one of the ``missing``
    paths (as the failed run's stderr reported them) is a file operand of one stage after a pipe
    and appears nowhere else in ``command``; None otherwise."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) < 2:
        return None
    for path in missing:
        fixed = _dropped(command, stages, path)
        if fixed is not None:
            program = os.path.basename(str(stages[fixed[1]][0]))
            return fixed[0], f"{path} does not exist; `{program}` after the pipe read the pipe's output instead"
    return None


def _dropped(command: str, stages: List[list], path: str) -> Optional[Tuple[str, int]]:
    places = [(k, i) for k, stage in enumerate(stages) for i, word in enumerate(stage) if str(word) == path]
    if len(places) != 1 or places[0][0] == 0:
        return None
    k, i = places[0]
    words = [str(w) for w in stages[k]]
    program = os.path.basename(words[0])
    if program not in _FILTERS or i == 0 or _option_value(program, words[i - 1]):
        return None
    # The word as written (bare or quoted), once in the text, with the blank before it.
    where = re.compile(r"\s+(['\"]?)" + re.escape(path) + r"\1(?=\s|\||$)")
    found = list(where.finditer(command))
    if len(found) != 1:
        return None
    fixed = command[:found[0].start()] + command[found[0].end():]
    try:
        again = split_pipeline(fixed)
    except Refusal:
        return None
    expected = [list(map(str, s)) for s in stages]
    del expected[k][i]
    return (fixed, k) if [list(map(str, s)) for s in again] == expected else None


def _option_value(program: str, before: str) -> bool:
    """``before`` may be an option of ``program`` whose value is the next word (``-f FILE``): the
    path is then that value, not a file the program reads as its input. An option the tool spec
    does not know counts as one (such commands are refused anyway; the rewrite never guesses)."""
    if not before.startswith("-") or before == "-":
        return False
    spec = SPECS.get(program)
    if spec is None:
        return True
    if before.startswith("--"):
        name = before[2:]
        return "=" not in name and name not in spec.long
    cluster = before[1:]
    for j, letter in enumerate(cluster):
        if letter in spec.short_value:
            return j == len(cluster) - 1  # the value is the rest of the cluster, or the next word
        if letter not in spec.short and not (spec.numeric_shorthand and letter.isdigit()):
            return True
    return False
