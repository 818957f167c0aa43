"""A grep whose pattern is written in Perl syntax, read as extended or basic: run again with -P.

`(?:…)`, `(?=…)`, `(?<=…)` and their negations exist in Perl's syntax only; grep -E and basic grep read
`(?` as a group with a stray `?` (GNU grep warns "? at start of expression" and goes on), so the search
matches something else than what was written, or fails. Under -E, `\\d` is no digit class either: it
matches the letter d. Models trained on Python and Perl regexes write them anyway: measured on AgentBench OS
at 529b167, test-56 ("the unique IP addresses") ran `grep -oE '\\b(?:[0-9]{1,3}\\.){3}[0-9]{1,3}\\b'` in both
seeds and counted 4 addresses for 3. The pattern names its syntax by what it uses, so ragix searches it
with -P, whatever the output was, and says so to the writer. A pattern that already says -P, -F or -G is
searched as written. This module only rewrites the text: the result goes through the same lexer and
validation as any command.
"""

from __future__ import annotations

import re
from typing import Optional, Tuple

from ragix_core.tools.grep_words import one_pattern_grep, read_grep
from ragix_core.tools.lexer import rewrite_first_stage

__all__ = ["grep_as_perl"]

_ANY = re.compile(r".+", re.DOTALL)
_OTHER_SYNTAX = ("--perl-regexp", "--fixed-strings", "--basic-regexp")
_PERL_GROUP = re.compile(r"(?<!\\)\(\?(?:[:=!]|<[=!])")  # (?: (?= (?! (?<= (?<!
_DIGIT_CLASS = re.compile(r"(?<!\\)\\[dD]")


def grep_as_perl(command: str) -> Optional[Tuple[str, str]]:
    """``(the same command with -P on its grep, what ragix says)`` when a stage of ``command`` is a grep
    whose one pattern uses Perl-only syntax (a `(?` group; `\\d` under -E) and does not ask for -P, -F or -G
    (the first such stage); None otherwise."""
    return rewrite_first_stage(command, _stage_as_perl)


def _stage_as_perl(stage: str) -> Optional[Tuple[str, str]]:
    found = one_pattern_grep(stage, _ANY, "PFG", _OTHER_SYNTAX)
    if found is None:
        return None
    words, pattern = found
    g = read_grep(words[1:])
    extended = "E" in g.flags or "--extended-regexp" in g.long_names
    if not (_PERL_GROUP.search(pattern) or (extended and _DIGIT_CLASS.search(pattern))):
        return None
    if extended:
        option = next((w for w in g.options if w == "--extended-regexp" or
                       (w.startswith("-") and not w.startswith("--") and "E" in w)), None)
        where = re.search(r"(?<=\s)" + re.escape(option) + r"(?=\s|$)", stage) if option else None
        if where is None:
            return None  # the option is written some way this rewrite does not find: searched as written
        perl = "--perl-regexp" if option == "--extended-regexp" else option.replace("E", "P")
        fixed = stage[:where.start()] + perl + stage[where.end():]
    else:
        start = stage.index(words[0]) + len(words[0])
        fixed = f"{stage[:start]} -P{stage[start:]}"
    said = (f"'{pattern}' is Perl syntax, which grep {'-E ' if extended else ''}reads otherwise: "
            "ragix searched it with -P")
    return fixed, said
