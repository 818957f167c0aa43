"""A grep over a top-level glob that found nothing, written as the search of the whole tree.

`*.py` matches the top directory only, as in a shell; a planner that writes `grep -rl dataclass
*.py` means "the Python files" (measured on the regression set, one question in every run of R3 at
571bb74: the grep read the two top-level modules, found nothing, and the run spent its reflection
and four more steps finding src/PKG/FILE.py). When such a search found nothing and files of that name exist deeper,
ragix searches the tree with ``-r --include=GLOB .`` and says so. Only a grep whose file operands
are all top-level globs, and never for ``-v``. This module only rewrites the text: the result goes
through the same lexer and validation as any command, and the caller says what it ran.
"""

from __future__ import annotations

import fnmatch
import shlex
from typing import Callable, Iterable, Optional, Tuple

from ragix_core.tools.grep_directory import inverted, recursive
from ragix_core.tools.grep_words import read_grep
from ragix_core.tools.lexer import GlobWord, first_pipe, first_stage

__all__ = ["top_globs_as_tree"]


def top_globs_as_tree(command: str, files: Callable[[], Iterable[str]]) -> Optional[Tuple[str, str]]:
    """``(the search of the tree, what ragix says)`` when ``command``'s first stage is a grep whose
    file operands are all top-level globs and one of ``files()`` (the project's files, relative
    paths; listed only when needed) lies deeper with a matching name; None otherwise."""
    stage = first_stage(command, "grep")
    if stage is None:
        return None
    words = [str(w) for w in stage[1:]]
    grep = read_grep(stage[1:])
    if not grep.complete or not grep.pattern_given or inverted(words):
        return None
    globs = [w for w in grep.operands if isinstance(w, GlobWord)]
    if not grep.operands or len(globs) != len(grep.operands) or any("/" in g for g in globs):
        return None
    if not any("/" in f and any(fnmatch.fnmatch(f.rsplit("/", 1)[1], g) for g in globs) for f in files()):
        return None
    cut = first_pipe(command)
    rest = "" if cut is None else command[cut:]
    new = [str(stage[0]), *grep.options, *([] if recursive(words) else ["-r"]),
           *(f"--include={g}" for g in dict.fromkeys(globs)), *map(str, grep.pattern), "."]
    shown = ", ".join(f"`{g}`" for g in dict.fromkeys(globs))
    return (" ".join(shlex.quote(w) for w in new) + (f" {rest.strip()}" if rest else ""),
            f"{shown} names files of the top directory only, where the search found nothing; "
            f"ragix searched the whole project for those names instead")
