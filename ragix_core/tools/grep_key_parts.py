"""A grep for a snake_case name that matched nothing, run again for its parts as words.

Goals name a setting the way code would ("server port" becomes `server_port`), and a nested
configuration writes its parts apart: `server:` on one line, `  port: N` under it. Measured
(issue 12): a regression question's plans searched `grep 'server_port' config/FILE.yaml` in run after run
(a9a2574, 789e1a5, f04ae2c and 1aca867), found nothing, and each time spent a reflection and a step
over the goal's budget to learn the file's shape. When such a search printed nothing, ragix runs it
once more for each part as a whole word (`grep -w -e server -e port …`), which prints the keys with
their line numbers, and says so. Only a plain pattern of two to four lowercase parts joined by `_`,
given as the pattern word (not with -e or -f), in a grep without -v, -F or -w and with no pipe after
it (a reducer would cut the lines that show the shape).
This module only rewrites the text: the result goes through the same lexer and validation as any
command.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ragix_core.tools.grep_words import one_pattern_grep
from ragix_core.tools.lexer import first_pipe

__all__ = ["grep_key_parts"]

_SNAKE = re.compile(r"[a-z]{2,}(?:_[a-z]{2,}){1,3}")
_SKIP_LONG = ("--invert-match", "--fixed-strings", "--word-regexp", "--regexp", "--file")


def grep_key_parts(command: str) -> Optional[Tuple[str, str]]:
    """``(the same grep for the name's parts as words, what ragix says)``, or None (see the module)."""
    found = None if first_pipe(command) is not None else one_pattern_grep(command, _SNAKE, "vFwef", _SKIP_LONG)
    if found is None:
        return None
    name = found[1]
    written = list(re.finditer(rf"(?<=\s)(['\"]?){name}\1(?=\s|$)", command))
    if len(written) != 1:
        return None
    parts = name.split("_")
    swap = "-w " + " ".join(f"-e '{p}'" for p in parts)
    at = written[0]
    return (f"{command[:at.start()]}{swap}{command[at.end():]}",
            f"'{name}' matched nothing as written; a nested setting writes its parts apart "
            f"({': … '.join(parts)}:), so ragix searched each part as a word")
