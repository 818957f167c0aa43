"""A count of file names where the goal counts lines.

`find . -name '*.txt' | wc -l` prints how many files find listed. Asked for the lines in those files, small
models write it anyway: measured on AgentBench OS at bd99fa4, three tasks asking "the total number of lines in
all the text files" (test-42, -101, -123) ran it, and their cross-checks repeated it; the request's static line
("`find ... | wc -l` counts files, not lines") did not stop it. Said at the moment it happens, with the command
that did it, it is execution feedback (InterCode; SWE-agent's explicit messages), like pipe_mistakes.py's shapes.

Unlike those shapes this one reads the goal, for one thing only: whether the noun it counts is lines ("how many
lines", "the number of lines of code", "count all the lines", "line count", "how long, in lines"), not files
("the number of files with more than 10 lines" counts files). The command side is a shape: a stage that prints
paths, one a line (find, ls, grep -l), then only filters of those lines, then `wc -l` reading the pipe.

The same holds for a goal that counts files and directories together ("the total number of files and
directories", "directories, subdirectories and files"): a `find` that selects one kind (`-type f`, or `-type d`)
counted by `wc -l` leaves the other out. Measured on AgentBench OS at a6351b3: test-53, -78 and -80 ran
`find … -type f … | wc -l` for such goals, and answered with the files alone.
"""

from __future__ import annotations

import re
from typing import List, Optional

from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

__all__ = ["asks_line_count", "names_counted_for_lines", "asks_files_and_directories", "one_kind_counted",
           "count_unit_mistake"]

_COUNTED = r"(?:how many|number of|count(?:s|ed|ing)?|tall(?:y|ies|ied|ying)|totals?|sum of|add(?:s|ed|ing)? up)"
_OTHER_NOUN = r"(?:files?|director(?:y|ies)|folders?|entries|matches|occurrences|words?|characters?|bytes?)\b"
# The quantity word, then at most three words that are not another counted noun, then "lines" / "LOC".
_LINES = re.compile(_COUNTED + r"\s+(?:(?!" + _OTHER_NOUN + r")[\w'*.-]+\s+){0,3}?(?:lines?|loc)\b", re.IGNORECASE)
_LINE_COUNT = re.compile(r"\b(?:line counts?|lines of code|loc|(?:in|by|measured in) lines|line-?wise)\b",
                         re.IGNORECASE)
# "files with 10 lines", "files that have more than 3 lines": the count is of files.
_FILES_COUNTED = re.compile(_COUNTED + r"\s+(?:\w+\s+){0,2}?(?:files?|director(?:y|ies)|folders?)\b", re.IGNORECASE)

# "files and directories", "files/folders", "files plus dirs", "files as well as directories", "directories,
# subdirectories and files", at most five words after a quantity word.
_DIRS = r"(?:sub-?)?(?:director(?:y|ies)|dirs?|folders?)"
_JOIN = r"\s*(?:,|&|/|\band\b|\bor\b|\bplus\b|\bas well as\b|\btogether with\b)\s*(?:(?:every|all|the|their|any)\s+)?"
_BOTH = re.compile(_COUNTED + r"\s+(?:[\w,/:'()-]+\s+){0,5}?\(?(?:files?" + _JOIN + _DIRS
                   + r"|" + _DIRS + r"(?:" + _JOIN + r"(?:sub-?)?\w+)?" + _JOIN + r"files?)\b", re.IGNORECASE)

# Stages that pass the paths on, fewer or reordered, one a line.
_FILTERS = ("sort", "uniq", "head", "tail")


def asks_line_count(goal: str) -> bool:
    """The goal counts lines (of files, of code), and counts no files, directories or other items."""
    text = goal or ""
    if _FILES_COUNTED.search(text):
        return False
    return bool(_LINES.search(text) or _LINE_COUNT.search(text))


def _counts_the_pipe(stage: List[str]) -> bool:
    """`wc -l` (or `--lines`) given no file: it counts the lines piped into it."""
    return stage_program(stage) == "wc" and len(stage) >= 2 and all(
        w in ("-l", "--lines") for w in stage[1:])


def _lists_paths(stage: List[str]) -> bool:
    program = stage_program(stage)
    if program == "find":
        return not any(w in ("-exec", "-execdir", "-printf", "-fprintf", "-ls", "-fls") for w in stage[1:])
    if program == "ls":
        return not any(w.startswith("-") and not w.startswith("--") and "l" in w for w in stage[1:])
    if program in GREP_PROGRAMS:
        g = read_grep(stage[1:])
        return bool(set(g.flags) & set("lL")) or bool({"--files-with-matches", "--files-without-match"}
                                                       & set(g.long_names))
    return False


def _passes_paths(stage: List[str]) -> bool:
    """A filter of path lines: sort, uniq, head, tail, or a grep of the piped lines (no file, no -r, -c)."""
    program = stage_program(stage)
    if program in _FILTERS:
        return True
    if program in GREP_PROGRAMS:
        g = read_grep(stage[1:])
        return not g.operands and not set(g.flags) & set("rRclLo")
    return False


def names_counted_for_lines(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` counts lines and ``command`` counts the paths a
    listing printed; None otherwise."""
    if not asks_line_count(goal):
        return None
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) < 2 or not _counts_the_pipe(stages[-1]):
        return None
    i = len(stages) - 2
    while i > 0 and _passes_paths(stages[i]):
        i -= 1
    if not _lists_paths(stages[i]):
        return None
    program = stage_program(stages[i])
    return (f"`{program}` printed file names, one a line, so the `wc -l` at the end counted the files, not the "
            "lines inside them; the goal asks for lines. To count the lines in those files, the files themselves "
            "must reach `wc` (through `xargs`), or their contents (through `cat`).")


def asks_files_and_directories(goal: str) -> bool:
    """The goal counts files and directories together."""
    return bool(_BOTH.search(goal or ""))


def _kinds(stage: List[str]) -> set:
    """The kinds a find's `-type` tests name (`-type f`, `-type f,d`), empty when it has none."""
    kinds: set = set()
    for word, value in zip(stage, stage[1:]):
        if word == "-type":
            kinds.update(k for k in str(value).split(",") if k)
    return kinds


def one_kind_counted(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` counts files and directories and ``command``
    counts what a `find` of one kind listed; None otherwise."""
    if not asks_files_and_directories(goal):
        return None
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) < 2 or not _counts_the_pipe(stages[-1]) or stage_program(stages[0]) != "find":
        return None
    kinds = _kinds([str(w) for w in stages[0]])
    if kinds not in ({"f"}, {"d"}):
        return None
    listed, left = ("regular files", "directories") if kinds == {"f"} else ("directories", "files")
    return (f"`find -type {next(iter(kinds))}` listed {listed} only, so the `wc -l` counted no {left}; the goal "
            "counts files and directories. Without `-type`, find lists both, and the starting directory itself "
            "(`-mindepth 1` leaves it out).")


def count_unit_mistake(goal: str, command: str) -> Optional[str]:
    """What ``command`` counts that ``goal`` does not (count_unit's two shapes), else None."""
    return names_counted_for_lines(goal, command) or one_kind_counted(goal, command)
