"""A grep for a lowercase word that matched nothing, run again ignoring case.

People write a word in lowercase and the files write it as a heading or a label: "Maintainer:",
"Port", "TODO". Measured at temperature 0.3 (issue 12, a9a2574): maintainer-name's plans searched
`grep -rn 'maintainer' .`, found nothing next to `Maintainer: Ada Lovelace`, and each run spent a
reflection and two steps over the goal's budget to learn the case. When such a search printed
nothing, ragix runs it once more with ``-i`` and says so. Only one plain word of lowercase letters:
a code name (`log_level`, `loadItems`), a statement (`from storage`: Python's keywords have a case)
or a regular expression is searched as written.
This module only rewrites the text: the result goes through the same lexer and validation as any
command.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import first_pipe, first_stage

__all__ = ["grep_ignoring_case"]

_ONE_LOWERCASE_WORD = re.compile(r"[a-z]+")
_CASE_OPTIONS = ("--ignore-case", "--no-ignore-case", "--invert-match")


def grep_ignoring_case(command: str) -> Optional[Tuple[str, str]]:
    """``(the same grep with -i, what ragix says)`` when ``command``'s first stage is a grep, without
    -i or -v, whose one pattern is one plain lowercase word; None otherwise."""
    stage = first_stage(command, "grep")
    if stage is None:
        return None
    words = [str(w) for w in stage]
    g = read_grep(words[1:])
    if (not g.complete or len(g.pattern) != 1 or any(f in g.flags for f in "iyv")
            or any(n in _CASE_OPTIONS for n in g.long_names)):
        return None
    pattern = str(g.pattern[0])
    if not _ONE_LOWERCASE_WORD.fullmatch(pattern):
        return None
    cut = first_pipe(command)
    head, rest = (command, "") if cut is None else (command[:cut], command[cut:])
    start = head.index(words[0]) + len(words[0])
    return (f"{head[:start]} -i{head[start:]}{rest}",
            f"'{pattern}' matched nothing as written, so ragix searched it ignoring case (-i)")
