"""A grep whose pattern is written in extended syntax, read as basic, that matched nothing: run again with -E.

Without -E, grep reads a basic regular expression, where `+`, `?`, `|` and `{` are plain characters and
`\\d` is a stray `d`. People (and models) write `grep -o '[0-9]+'` or `grep -o '\\d+'` meaning "a run of
digits"; grep then finds nothing, and a pipe after it sums or counts nothing. Measured at d80e847: three
of the main path's wrong answers on AgentBench OS and NL2Bash came from such patterns (`[0-9]+`,
`[+-]?\\d+`, `[a-zA-Z0-9]+`). When such a search printed nothing, ragix runs it once more with -E (and
`\\d` as `[0-9]`, which -E does not know either) and says so to the writer. A pattern that already names
its syntax (-E, -P, -F or -G) or escapes the characters (`\\+`) is searched as written.
This module only rewrites the text: the result goes through the same lexer and validation as any command.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ragix_core.tools.grep_words import one_pattern_grep
from ragix_core.tools.lexer import rewrite_first_stage

__all__ = ["grep_as_extended"]

_ANY = re.compile(r".+", re.DOTALL)
_SYNTAX_OPTIONS = ("--extended-regexp", "--perl-regexp", "--fixed-strings", "--basic-regexp")
# An unescaped `+`, `?`, `|` or `{n`: a repetition or an alternative in extended syntax, a plain character in basic.
_EXTENDED = re.compile(r"(?<!\\)(?:[+?|]|\{\d)")
_DIGIT_CLASS = re.compile(r"\\([dD])")


def grep_as_extended(command: str) -> Optional[Tuple[str, str]]:
    """``(the same command with -E on its grep, what ragix says)`` when a stage of ``command`` is a grep in
    basic syntax whose one pattern uses extended syntax or `\\d` (the first such stage); None otherwise.
    Any stage: `grep -rn port FILE | grep -o '[0-9]+'` printed nothing for the same reason as a first-stage
    grep does (measured on our own sets at fe469a8: a run's nine commands all ended in such a stage)."""
    return rewrite_first_stage(command, _stage_as_extended)


def _stage_as_extended(stage: str) -> Optional[Tuple[str, str]]:
    """One stage (no pipe in it) rewritten with -E, or None."""
    found = one_pattern_grep(stage, _ANY, "EPFG", _SYNTAX_OPTIONS)
    if found is None:
        return None
    words, pattern = found
    if not (_EXTENDED.search(pattern) or _DIGIT_CLASS.search(pattern)):
        return None
    start = stage.index(words[0]) + len(words[0])
    head = f"{stage[:start]} -E{stage[start:]}"
    said = f"'{pattern}' is extended syntax, which grep reads as plain characters without -E"
    if _DIGIT_CLASS.search(pattern):
        # The pattern stands in the command as written (quoted or not); its `\d` becomes a bracket class.
        at = head.find(pattern, start)
        if at < 0:
            return None
        classes = _DIGIT_CLASS.sub(lambda m: "[0-9]" if m.group(1) == "d" else "[^0-9]", pattern)
        head = head[:at] + classes + head[at + len(pattern):]
        said += f", and \\d is not a digit there either: ragix searched '{classes}' with -E"
    else:
        said += ": ragix searched it again with -E"
    return head, said
