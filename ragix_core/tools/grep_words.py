"""grep's words read as grep reads them: options (with their values), the pattern, the file operands.

The options that take a value are the ones grep's tool spec admits with one (any other is refused
before a command runs, so no reader here meets it). Used by the rewrites and views that need to
know which words of a grep are its files (evidence/attribution.py, tools/grep_glob.py), and the
rewrites of an empty search, which need its one pattern (tools/grep_case.py, tools/grep_key_parts.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from ragix_core.tools.lexer import first_stage
from ragix_core.tools.specs import SPECS

__all__ = ["GrepWords", "read_grep", "one_pattern_grep", "GREP_PROGRAMS"]

GREP_PROGRAMS = ("grep", "egrep", "fgrep")  # the programs read_grep reads

_VALUED = set(SPECS["grep"].short_value)
_VALUED_LONG = {f"--{name}" for name in SPECS["grep"].long_value}


@dataclass
class GrepWords:
    flags: str = ""  # the short option letters, each cluster read up to the option that takes a value
    long_names: List[str] = field(default_factory=list)  # long options, without "=value"
    options: List[str] = field(default_factory=list)  # the option words as written, each with its value
    pattern: list = field(default_factory=list)  # the words giving the pattern ("--" kept); [] when -e/-f gave it
    operands: list = field(default_factory=list)  # the file operands, as the lexer gave them (a GlobWord stays one)
    pattern_given: bool = False  # by a pattern word or by -e/--regexp or -f/--file
    complete: bool = True  # False when an option's value is missing at the end


def read_grep(words: Sequence[str]) -> GrepWords:
    """``words``: grep's arguments (without ``grep``), lexer words or strings."""
    g = GrepWords()
    given = False  # -e/--regexp or -f/--file gave the pattern: every plain word is a file
    i = 0
    while i < len(words):
        word = words[i]
        text = str(word)
        i += 1
        if text == "--":
            rest = list(words[i:])
            if not given and rest:
                g.pattern, rest, given = [text, rest[0]], rest[1:], True
            g.operands.extend(rest)
            break
        if text.startswith("--"):
            name = text.split("=", 1)[0]
            g.options.append(text)
            g.long_names.append(name)
            given = given or name in ("--regexp", "--file")
            if name in _VALUED_LONG and "=" not in text:
                i = _value(words, i, g)
            continue
        if text.startswith("-") and len(text) > 1:
            g.options.append(text)
            for j, flag in enumerate(text[1:]):
                g.flags += flag
                if flag in _VALUED:
                    given = given or flag in "ef"
                    if j == len(text) - 2:  # the value is the next word
                        i = _value(words, i, g)
                    break
            continue
        if not given:
            g.pattern, given = [word], True
        else:
            g.operands.append(word)
    g.pattern_given = given
    return g


def _value(words: Sequence[str], i: int, g: GrepWords) -> int:
    if i >= len(words):
        g.complete = False
        return i
    g.options.append(str(words[i]))
    return i + 1


def one_pattern_grep(command: str, shape: "re.Pattern[str]", flags: str,
                     long_names: Sequence[str]) -> Optional[Tuple[List[str], str]]:
    """``(the first stage's words, its pattern)`` when ``command``'s first stage is a grep given one
    pattern word that ``shape`` matches whole, using none of the short option letters ``flags`` nor
    the ``long_names``; None otherwise."""
    stage = first_stage(command, "grep")
    if stage is None:
        return None
    words = [str(w) for w in stage]
    g = read_grep(words[1:])
    if (not g.complete or len(g.pattern) != 1 or any(f in g.flags for f in flags)
            or any(n in long_names for n in g.long_names)):
        return None
    pattern = str(g.pattern[0])
    return (words, pattern) if shape.fullmatch(pattern) else None
