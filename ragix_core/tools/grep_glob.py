"""A grep over a top-level glob that found nothing, written as the search of the whole tree.

`*.py` matches the top directory only, as in a shell; a planner that writes `grep -rl dataclass
*.py` means "the Python files" (measured, dataclass-name in every run of R3 at 571bb74: the grep
read a.py and b.py, found nothing, and the run spent its reflection and four more steps finding
src/inventory/models.py). When such a search found nothing and files of that name exist deeper,
ragix searches the tree with ``-r --include=GLOB .`` and says so. Only a grep whose file operands
are all top-level globs, and never for ``-v``. This module only rewrites the text: the result goes
through the same lexer and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

import fnmatch
import os
import shlex
from typing import Callable, Iterable, List, Optional, Tuple

from ragix_core.tools.grep_directory import inverted, recursive
from ragix_core.tools.lexer import GlobWord, first_pipe, split_pipeline
from ragix_core.tools.refusal import Refusal
from ragix_core.tools.specs import SPECS

__all__ = ["top_globs_as_tree"]

_VALUED = set(SPECS["grep"].short_value)
_VALUED_LONG = {f"--{name}" for name in SPECS["grep"].long_value}


def _options_pattern_operands(words: List[str]) -> Optional[Tuple[List[str], List[str], List[str]]]:
    """grep's words as (options with their values, the pattern words, the file operands); the
    pattern words are empty when -e/--regexp gave it. None without a pattern."""
    options: List[str] = []
    pattern: List[str] = []
    operands: List[str] = []
    given = False  # -e/--regexp gave the pattern: every plain word is a file
    i = 0
    while i < len(words):
        word = words[i]
        i += 1
        if word == "--":
            rest = words[i:]
            if not given and rest:
                pattern, rest = [word, rest[0]], rest[1:]
                given = True
            operands.extend(rest)
            break
        if word.startswith("--"):
            options.append(word)
            given = given or word.split("=", 1)[0] == "--regexp"
            if word.split("=", 1)[0] in _VALUED_LONG and "=" not in word:
                if i >= len(words):
                    return None
                options.append(words[i])
                i += 1
            continue
        if word.startswith("-") and len(word) > 1:
            options.append(word)
            for j, flag in enumerate(word[1:]):
                if flag in _VALUED:
                    given = given or flag == "e"
                    if j == len(word) - 2:  # the value is the next word
                        if i >= len(words):
                            return None
                        options.append(words[i])
                        i += 1
                    break
            continue
        if not given:
            pattern, given = [word], True
        else:
            operands.append(word)
    return (options, pattern, operands) if given else None


def top_globs_as_tree(command: str, files: Callable[[], Iterable[str]]) -> Optional[Tuple[str, str]]:
    """``(the search of the tree, what ragix says)`` when ``command``'s first stage is a grep whose
    file operands are all top-level globs and one of ``files()`` (the project's files, relative
    paths; listed only when needed) lies deeper with a matching name; None otherwise."""
    try:
        stages = split_pipeline(command or "")
    except Refusal:
        return None
    if not stages or not stages[0] or os.path.basename(str(stages[0][0])) != "grep":
        return None
    words = [str(w) for w in stages[0][1:]]
    parsed = _options_pattern_operands(words)
    if parsed is None or inverted(words):
        return None
    options, pattern, operands = parsed
    globs = [w for w in stages[0][1:] if isinstance(w, GlobWord) and str(w) in operands]
    if not operands or len(globs) != len(operands) or any("/" in g for g in globs):
        return None
    if not any("/" in f and any(fnmatch.fnmatch(f.rsplit("/", 1)[1], g) for g in globs) for f in files()):
        return None
    cut = first_pipe(command)
    rest = "" if cut is None else command[cut:]
    new = [str(stages[0][0]), *options, *([] if recursive(words) else ["-r"]),
           *(f"--include={g}" for g in dict.fromkeys(globs)), *pattern, "."]
    shown = ", ".join(f"`{g}`" for g in dict.fromkeys(globs))
    return (" ".join(shlex.quote(w) for w in new) + (f" {rest.strip()}" if rest else ""),
            f"{shown} names files of the top directory only, where the search found nothing; "
            f"ragix searched the whole project for those names instead")
