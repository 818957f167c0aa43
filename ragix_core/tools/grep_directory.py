"""A grep aimed at a directory without ``-r``, written as the recursive search it stands for.

GNU grep given a directory and no ``-r`` prints "grep: DIR: Is a directory" and exits 2, and a
failed step costs a reflection (measured on the regression set at 62eb891: the run's last one
went to such a step). A person would add ``-r``; so does ragix, once, for the first stage only, and not
for ``-v``: that very step, `grep -v 'FILE.py' . | wc -l`, rewritten, printed every other line of
the project (dfcbeb6). This module only rewrites the text: the result goes through the same lexer
and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

import os
import re
import shlex
from typing import Optional, Tuple

from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import first_pipe

__all__ = ["grep_directory_as_recursive", "recursive", "inverted"]

_IS_A_DIRECTORY = re.compile(r"^\S*grep: (.+): Is a directory$", re.MULTILINE)
_RECURSIVE_LONG = ("--recursive", "--dereference-recursive")


def recursive(words) -> bool:
    """grep's arguments ``words`` (without ``grep``) ask for a recursive search. Read as grep reads
    them (``grep_words.read_grep``): in ``grep -e -rv x`` the ``-rv`` is the pattern, not options."""
    g = read_grep(words)
    return "r" in g.flags or "R" in g.flags or any(n in _RECURSIVE_LONG for n in g.long_names)


def inverted(words) -> bool:
    """-v over a whole tree prints every other line of every file: never evidence (measured at dfcbeb6
    on the regression set: `grep -r -v 'FILE.py' .` filled the writer's evidence with the project)."""
    g = read_grep(words)
    return "v" in g.flags or "--invert-match" in g.long_names


def grep_directory_as_recursive(command: str, stderr: str) -> Optional[Tuple[str, str]]:
    """``(command with grep -r, what ragix says)`` when the first stage is a grep that named a
    directory ``stderr`` reports, without a recursive option; None otherwise."""
    directories = _IS_A_DIRECTORY.findall(stderr or "")
    if not directories:
        return None
    cut = first_pipe(command)
    stage, rest = (command, "") if cut is None else (command[:cut], command[cut:])
    try:
        words = shlex.split(stage)
    except ValueError:
        return None
    if not words or os.path.basename(words[0]) != "grep" or recursive(words[1:]) or inverted(words[1:]):
        return None
    named = [d for d in directories if d in words[1:]]
    if not named:
        return None
    start = stage.index(words[0]) + len(words[0])
    fixed = f"{stage[:start]} -r{stage[start:]}{rest}"
    return fixed, f"grep was given the directory {named[0]}, so it searched it recursively (-r)"
