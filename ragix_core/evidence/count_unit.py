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

And for a goal that leaves the directory it counts in out ("the number of subdirectories", "excluding the
directory itself"): a `find DIR` without `-mindepth 1` lists DIR itself as its first line, and `wc -l` counts it.
Measured on AgentBench OS at 529b167: test-96 ("the total number of subdirectories") ran `find . -type d | wc -l`
and answered 1 for 0 as `success`; test-53 ran the same shape. A goal that says to count the directory itself,
or says nothing of it, is left alone: whether a count "in DIR" holds DIR is the task's to say.
"""

from __future__ import annotations

import fnmatch
import os
import re
from typing import List, Optional

from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.lexer import short_flags, split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

__all__ = ["asks_line_count", "names_counted_for_lines", "names_counted", "asks_files_and_directories",
           "one_kind_counted", "asks_without_the_start", "start_counted", "count_unit_mistake"]

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

# "the number of subdirectories", "how many sub-folders": a noun that never includes the directory they are in.
_SUBDIRS = re.compile(_COUNTED + r"\s+(?:(?:the|all|total|of|non-hidden|immediate|direct)\s+){0,3}"
                      r"sub-?(?:director(?:y|ies)|dirs?|folders?)\b", re.IGNORECASE)
# "excluding the directory itself", "do not include the folder itself"; and the opposite, "counting it itself".
_WITHOUT_ITSELF = re.compile(r"\b(?:excluding|not counting|without|except|other than|apart from|leaving out|"
                             r"(?:do|does|should|must) not (?:include|count)|don't (?:include|count))\b"
                             r"[^.;]{0,40}?\b(?:director(?:y|ies)|folders?|dirs?)\b[^.;]{0,20}?\bitself\b",
                             re.IGNORECASE)
_WITH_ITSELF = re.compile(r"\b(?:counting|including|include|count)\b[^.;]{0,40}?\bitself\b", re.IGNORECASE)
# The prune ragix adds to every find (tools: its own state directory is never listed).
_OWN_PRUNE = ["-name", ".ragix", "-prune", "-o"]

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


def names_counted(command: str) -> Optional[List[List[str]]]:
    """``command``'s stages from the one that lists paths, when filters of them follow, then `wc -l` reading
    the pipe; None otherwise."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) < 2 or not _counts_the_pipe(stages[-1]):
        return None
    i = len(stages) - 2
    while i > 0 and _passes_paths(stages[i]):
        i -= 1
    return stages[i:] if _lists_paths(stages[i]) else None


def names_counted_for_lines(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` counts lines and ``command`` counts the paths a
    listing printed; None otherwise."""
    if not asks_line_count(goal):
        return None
    stages = names_counted(command)
    if stages is None:
        return None
    program = stage_program(stages[0])
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
    if len(stages) >= 2 and stage_program(stages[0]) == "ls":
        return _one_kind_of_ls(stages)
    if len(stages) < 2 or not _counts_the_pipe(stages[-1]) or stage_program(stages[0]) != "find":
        return None
    kinds = _kinds([str(w) for w in stages[0]])
    if kinds not in ({"f"}, {"d"}):
        return None
    listed, left = ("regular files", "directories") if kinds == {"f"} else ("directories", "files")
    return (f"`find -type {next(iter(kinds))}` listed {listed} only, so the `wc -l` counted no {left}; the goal "
            "counts files and directories. Without `-type`, find lists both, and the starting directory itself "
            "(`-mindepth 1` leaves it out).")


def asks_without_the_start(goal: str) -> bool:
    """The goal leaves the directory it counts in out: it says so ("excluding the directory itself"), or it counts
    subdirectories; not when it says to count the directory itself."""
    text = goal or ""
    if _WITHOUT_ITSELF.search(text):
        return True
    return not _WITH_ITSELF.search(text) and bool(_SUBDIRS.search(text))


def _lists_its_start(stage: List[str]) -> Optional[str]:
    """The one starting point of a find that prints it among what it finds, a line each: no -mindepth, no -type
    but d, only -maxdepth, -type, -print and name tests whose verdict on the start's own name is to list it.
    None otherwise."""
    words = [str(w) for w in stage[1:]]
    for i in range(len(words) - len(_OWN_PRUNE) + 1):
        if words[i:i + len(_OWN_PRUNE)] == _OWN_PRUNE:
            words = words[:i] + words[i + len(_OWN_PRUNE):]
            break
    starts = []
    while words and not words[0].startswith("-") and words[0] not in ("(", "!", ")"):
        starts.append(words.pop(0))
    if len(starts) != 1:
        return None
    name = os.path.basename(starts[0].rstrip("/")) or starts[0]
    i, negate = 0, False
    while i < len(words):
        word = words[i]
        if word in ("(", ")", "-print"):  # (-print0 prints no line for wc to count)
            i += 1
        elif word in ("!", "-not"):
            negate, i = True, i + 1
            continue
        elif word in ("-maxdepth", "-type") and i + 1 < len(words):
            if word == "-type" and "d" not in words[i + 1].split(","):
                return None
            i += 2
        elif word in ("-name", "-iname") and i + 1 < len(words):
            matches = fnmatch.fnmatchcase(name.lower() if word == "-iname" else name,
                                          words[i + 1].lower() if word == "-iname" else words[i + 1])
            if matches == negate:
                return None
            i += 2
        else:
            return None  # -mindepth, -o, a size or time test: not told apart here
        negate = False
    return starts[0]


def start_counted(goal: str, command: str) -> Optional[str]:
    """A sentence for the model's next request when ``goal`` leaves the directory it counts in out and
    ``command`` counts a `find` listing that holds that directory; None otherwise."""
    if not asks_without_the_start(goal):
        return None
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if len(stages) < 2 or not _counts_the_pipe(stages[-1]) or stage_program(stages[0]) != "find":
        return None
    if not all(_passes_paths(s) for s in stages[1:-1]):
        return None
    start = _lists_its_start(stages[0])
    if start is None:
        return None
    return (f"`find {start}` lists `{start}` itself as its first line, so the `wc -l` counted it too; the goal "
            "leaves the directory itself out. `-mindepth 1` lists only what is inside it.")


def _one_kind_of_ls(stages: List[List[str]]) -> Optional[str]:
    """`ls -l` whose lines a grep keeps by their type letter (`^d` directories, `^-` regular files), then
    counted (`grep -c`, or `wc -l` after it). Measured on AgentBench OS at 529b167: test-118 ("the total number of
    files and directories directly inside") ran `ls -l DIR | grep -c '^d'` in both seeds."""
    if "l" not in short_flags([str(w) for w in stages[0][1:]]):
        return None
    for i, stage in enumerate(stages[1:], start=1):
        if stage_program(stage) not in GREP_PROGRAMS:
            continue
        g = read_grep(stage[1:])
        pattern = str(g.pattern[-1]) if g.pattern else ""
        kind = {"^d": "directories", "^-": "regular files"}.get(pattern)
        counted = "c" in g.flags or any(_counts_the_pipe(s) for s in stages[i + 1:])
        if kind and counted and not set(g.flags) & set("vo"):
            left = "files" if kind == "directories" else "directories"
            return (f"`grep '{pattern}'` kept only the lines of `ls -l` that are {kind}, so the count counted no "
                    f"{left}; the goal counts files and directories. `ls -A DIR | wc -l` counts every entry (hidden "
                    "ones too; `ls DIR | wc -l` leaves those out).")
    return None


def count_unit_mistake(goal: str, command: str) -> Optional[str]:
    """What ``command`` counts that ``goal`` does not (count_unit's three shapes), else None."""
    return names_counted_for_lines(goal, command) or one_kind_counted(goal, command) or start_counted(goal, command)
