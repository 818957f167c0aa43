"""A grep for a lowercase word that matched nothing, run again ignoring case.

People write a word in lowercase and the files write it as a heading or a label: "Maintainer:",
"Port", "TODO". Measured at temperature 0.3 (issue 12, a9a2574): a regression question's plans searched
`grep -rn 'maintainer' .`, found nothing next to `Maintainer: NAME`, and each run spent a
reflection and two steps over the goal's budget to learn the case. When such a search printed
nothing, ragix runs it once more with ``-i`` and says so. Only one plain word of lowercase letters:
a code name (`max_size`, `loadItems`), a statement (`from mod`: Python's keywords have a case)
or a regular expression is searched as written.
This module only rewrites the text: the result goes through the same lexer and validation as any
command.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ragix_core.tools.grep_words import one_pattern_grep
from ragix_core.tools.lexer import first_pipe

__all__ = ["grep_ignoring_case"]

_ONE_LOWERCASE_WORD = re.compile(r"[a-z]+")
_CASE_OPTIONS = ("--ignore-case", "--no-ignore-case", "--invert-match")


def grep_ignoring_case(command: str) -> Optional[Tuple[str, str]]:
    """``(the same grep with -i, what ragix says)`` when ``command``'s first stage is a grep, without
    -i or -v, whose one pattern is one plain lowercase word; None otherwise."""
    found = one_pattern_grep(command, _ONE_LOWERCASE_WORD, "iyv", _CASE_OPTIONS)
    if found is None:
        return None
    words, pattern = found
    cut = first_pipe(command)
    head, rest = (command, "") if cut is None else (command[:cut], command[cut:])
    start = head.index(words[0]) + len(words[0])
    return (f"{head[:start]} -i{head[start:]}{rest}",
            f"'{pattern}' matched nothing as written, so ragix searched it ignoring case (-i)")
