"""ragix's own mend of a count of names where the goal counts lines: the same files, their lines counted.

Asked for a file's lines, the model counts names. At 3a39c24, of the paraphrase set's 60 runs, 23 ask a count of
lines; 15 first commands of the main path there counted names (`grep -rl PATH . | wc -l`, the files that mention
PATH: a doubt, path_as_text.py; `find … | wc -l`: a mistake, count_unit.py), and 14 of the plain call's. The
plain call answered those 14 wrong; the main path, told why, passed 13 of its 15, after 4 to 6 model calls where
a right first command takes 2 or 3. The model did say which files; only the unit of the count was wrong, and
that is what ragix mends, at once, without asking the model again (like a close file name re-aimed,
evidence/steps.py):
- a `find` listing counted by `wc -l`: the same listing, its files read by `wc -l` through `xargs`;
- a count of the files that mention a project file's path: `wc -l` of that file.
The goal is read for one thing only, as count_unit.py reads it: whether the noun it counts is lines. A listing
by `ls DIR` (names inside DIR) or `grep -l TEXT` (the files that hold TEXT, where "the lines that hold TEXT"
is the likelier question) is left to the model, told why as before.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Optional, Tuple

from ragix_core.tools.lexer import stage_program, stage_texts

from .count_unit import asks_line_count, names_counted
from .path_as_text import searched_file

__all__ = ["line_count_mend"]

_NOTE = "the command's `wc -l` counted file names, and the question asks for lines; ragix counted the lines in {what}"


def _listed_files_lines(command: str) -> Optional[Tuple[str, str]]:
    stages, texts = names_counted(command), stage_texts(command)
    if stages is None or len(stages) != len(texts) or stage_program(stages[0]) != "find":
        return None  # (a listing after another stage reads what that stage printed)
    nul = " -0" if any(str(w) == "-print0" for w in stages[0]) else ""
    return ("|".join(texts[:-1]).strip() + f" | xargs{nul} wc -l",
            _NOTE.format(what="the files the command listed"))


def _searched_file_lines(command: str, root: Path) -> Optional[Tuple[str, str]]:
    path = searched_file(command, root)
    if path is None:
        return None
    return f"wc -l {shlex.quote(path)}", _NOTE.format(what=f"`{path}`, the file whose name the command searched for")


def line_count_mend(goal: str, command: str, root: Path) -> Optional[Tuple[str, str]]:
    """``(command, note)`` that counts the lines ``command`` meant to, when ``goal`` counts lines and ``command``
    counted names (a `find` listing, or the files mentioning a project file's path); None otherwise."""
    if not asks_line_count(goal):
        return None
    return _listed_files_lines(command) or _searched_file_lines(command, root)
