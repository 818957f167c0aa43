"""A line count that keeps the empty lines the goal leaves out.

`wc -l` counts every line. Asked for "the lines of code, ignoring empty lines and comment lines", small models
write `find . -name '*.py' | xargs wc -l` anyway: measured on AgentBench OS at 529b167, test-63 answered 15 for
8 that way in both seeds, once as `success`. Said at the moment it happens, with the command that did it, it is
execution feedback (InterCode; SWE-agent's explicit messages), like count_unit.py's shapes.

The goal is read for one thing: that it leaves empty (or blank) lines out ("ignore empty lines", "not to count
empty lines", "the non-empty lines"); "empty files" or "empty directories" are other questions. The command side
is a shape: a `wc -l` with no stage that could drop lines by their content (grep, awk, sed, ...) anywhere in it.
"""

from __future__ import annotations

import re
from typing import Optional

from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

__all__ = ["asks_without_blank_lines", "blank_lines_counted"]

_LEFT_OUT = (r"\b(?:ignor\w*|exclud\w*|skip\w*|not (?:to )?count\w*|without|leav\w* out|except|other than|"
             r"apart from|(?:do|does|should|must) not (?:include|count)|don't (?:include|count))\b")
_BLANK_LINES = r"\b(?:empty|blank)\s+(?:(?:or|and)\s+[\w-]+\s+(?:[\w-]+\s+)?)?lines?\b"
_WITHIN_A_SENTENCE = r"(?:[^.;]|\.(?=\w))"  # a dot inside a name (app.py) does not end the sentence
_WITHOUT_BLANKS = re.compile(_LEFT_OUT + _WITHIN_A_SENTENCE + r"{0,50}?" + _BLANK_LINES
                             + r"|\bnon-?(?:empty|blank)\s+lines?\b"
                             + r"|\blines?\b" + _WITHIN_A_SENTENCE
                             + r"{0,30}?\bthat\s+(?:are|is)\s+not\s+(?:empty|blank)\b",
                             re.IGNORECASE)
_COMMENTS = re.compile(r"\bcomments?\b|\bcomment\s+lines?\b", re.IGNORECASE)
# Stages that only list, join, order or cut by position: no line leaves them for what it holds.
_KEEPS_EVERY_LINE = ("find", "ls", "xargs", "cat", "wc", "sort", "uniq", "head", "tail")


def asks_without_blank_lines(goal: str) -> bool:
    """The goal counts lines and leaves the empty (blank) ones out."""
    return bool(_WITHOUT_BLANKS.search(goal or ""))


def _wc_lines(words) -> bool:
    """``words`` run `wc` with -l (or --lines)."""
    return bool(words) and stage_program(words) == "wc" and any(
        w == "--lines" or (w.startswith("-") and not w.startswith("--") and "l" in w) for w in words[1:])


def _counts_file_lines(stages) -> bool:
    """A `wc -l` that reads files' lines: given files, run by xargs on them, or reading a `cat` of them (a `wc -l`
    reading a listing counts names: count_unit.py's shape)."""
    for i, stage in enumerate(stages):
        words = [str(w) for w in stage]
        if _wc_lines(words) and (any(not w.startswith("-") for w in words[1:])
                                 or any("cat" in (stage_program(s), *map(str, s)) for s in stages[:i])):
            return True
        if stage_program(words) == "xargs" and any(_wc_lines(words[j:]) for j in range(1, len(words))):
            return True
    return False


def blank_lines_counted(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` leaves empty lines out and ``command`` counts every
    line with `wc -l`; None otherwise."""
    if not asks_without_blank_lines(goal):
        return None
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if not stages or not _counts_file_lines(stages):
        return None
    if any(stage_program(s) not in _KEEPS_EVERY_LINE for s in stages):
        return None
    if any(stage_program(s) == "xargs" and "cat" not in map(str, s)
           and not any(_wc_lines([str(w) for w in s[j:]]) for j in range(1, len(s))) for s in stages):
        return None  # an xargs running another program than wc or cat
    comments = (" Comment lines, which the goal leaves out too, go the same way: `grep -v '^[[:space:]]*#'`."
                if _COMMENTS.search(goal) else "")
    return ("`wc -l` counted every line, the empty ones too; the goal leaves empty lines out. "
            "`grep -cv '^[[:space:]]*$' FILE` counts the other lines of a file, and "
            "`cat FILES | grep -v '^[[:space:]]*$' | wc -l` those of several together." + comments)
