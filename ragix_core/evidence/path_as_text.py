"""A search whose pattern is the path of a file in the project: it found the files that mention the name.

Measured on the paraphrase set (issue 34, 02fcfb1): for "how many lines does sqlparse/sql.py have?" the
model's first command was `grep -rl sqlparse/sql.py . | wc -l`, which prints how many files mention that
path (1), and the answer was that 1. It was the largest kind of wrong answer on the set (10 of the main
path's 25 failures ran such a search first). The shape is right for another question ("which files mention
README.md?"), so it is not a mistake: it is a doubt. A command that reads the file itself, drawn beside it
or on a retry told what the search did, is preferred; when none works the search's own output is answered,
as unconfirmed. The check reads the command and the files, never the goal.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Iterator, List, Optional, Tuple

from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

from .path_hints import project_files

__all__ = ["path_searched_as_text", "searched_file"]

# A pattern that reads as a path, not as a regular expression: a name with an extension or a slash, made of
# the characters paths use ("." is a regex wildcard, but it matches itself too).
_PATH_LIKE = re.compile(r"(?:\./)?[\w.-]+(?:/[\w.-]+)*/?")


def _is_project_path(pattern: str, operands: List[str], root: Path) -> bool:
    if not _PATH_LIKE.fullmatch(pattern) or not ("/" in pattern.strip("/") or "." in pattern.lstrip(".")):
        return False
    name = pattern[2:] if pattern.startswith("./") else pattern
    bases = [root] + [root / o for o in operands if (root / o).is_dir()]
    if any(os.path.exists(base / name) for base in bases):
        return True
    if "/" in name:
        return False
    return any(f.rsplit("/", 1)[-1] == name for f in project_files(root))  # a bare name anywhere in the tree


def _counted_or_listed(stages: List[List[str]], i: int, flags: str, long_names: List[str]) -> bool:
    """The search's output is taken as files (-l, -L, -c) or counted by a `wc` after it."""
    if set(flags) & set("lLc") or {"--files-with-matches", "--files-without-match", "--count"} & set(long_names):
        return True
    return any(stage_program(s) == "wc" for s in stages[i + 1:])


def _searched_paths(command: str, root: Path) -> Iterator[Tuple[str, str, List[str], bool]]:
    """``(program, pattern, operands, lists files)`` of each search in ``command`` whose output is counted or
    listed and whose one pattern is the path of something in the project."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return
    for i, stage in enumerate(stages):
        if stage_program(stage) not in GREP_PROGRAMS:
            continue
        g = read_grep(stage[1:])
        words = [str(w) for w in g.pattern if str(w) != "--"]
        if len(words) != 1 or not _counted_or_listed(stages, i, g.flags, g.long_names):
            continue
        pattern, operands = words[0], [str(o) for o in g.operands]
        if _is_project_path(pattern, operands, root):
            lists = "l" in g.flags or "--files-with-matches" in g.long_names
            yield stage_program(stage), pattern, operands, lists


def path_searched_as_text(command: str, root: Path) -> Optional[str]:
    """A sentence saying that ``command`` searched for the text of a project path, or None."""
    for program, pattern, _, _ in _searched_paths(command, Path(root)):
        return (f"`{program}` searched the text of the files for `{pattern}`, which is the name of a "
                "path in the project: it found the files that mention that name, not anything inside "
                f"`{pattern}` itself. If the goal is about what `{pattern}` holds, give it to the command "
                "that reads it as its file operand.")
    return None


def searched_file(command: str, root: Path) -> Optional[str]:
    """The one regular file of the project, relative to ``root``, whose path ``command`` searched for as text to
    list the files that mention it (`grep -l`); None when there is none, or when its name names several files."""
    root = Path(root)
    for _, pattern, operands, lists in _searched_paths(command, root):
        if not lists:
            continue
        name = (pattern[2:] if pattern.startswith("./") else pattern).rstrip("/")
        found = [os.path.normpath(os.path.join(base, name)) for base in [""] + operands
                 if (root / base / name).is_file()]
        if not found and "/" not in name:
            found = [f for f in project_files(root) if f.rsplit("/", 1)[-1] == name]
        found = sorted({f for f in found if not f.startswith("..")})  # (an operand may climb out: not ours to read)
        return found[0] if len(found) == 1 else None
    return None
