"""Pipelines whose shape shows they cannot compute what they were written for, whatever the goal says.

One shape so far, measured (issue 34, paraphrase set at dff3bdd): `find ... | wc -l | sort -nr | head -n 1`
for "which Python file is the longest?". `wc` given no file reads the pipe and prints one number (how many
lines it was given: the paths `find` printed), so the `sort` after it orders a single line and ranks
nothing. 6 of the main path's 60 paraphrase runs ran such a pipe, 5 of them ended wrong (three with a bare
count "confirmed" by another count of files). The check reads the command's stages only, never the goal:
a command of this shape is reported as a mistake and retried with the explanation as its feedback
(InterCode's execution feedback; SWE-agent's explicit messages), like a command that failed.

A second shape needs the files: a listing of paths (`find`, `ls`, `grep -l`) whose one operand is a regular
file, counted by `wc`. It prints 1 (or 0) whatever the file holds; the model wrote
`find sqlparse/engine/grouping.py -type f | wc -l` for "how many lines does grouping.py have?" (paraphrase set,
02fcfb1). With no root given, only the first shape is looked for.

A third shape: a grep that prints each line after its file's name (several files, a glob, -r or -H; not -h,
-l, -L), piped straight into a stage that reads a number from the line's start: an `awk` that adds up `$1`
or `$0` with the default field separator, or a numeric `sort` whose first or last lines are then taken.
Every line starts `file.txt:`, so awk reads 0 and sort ranks by file name. Measured on AgentBench OS
(b276682 and dff3bdd): "sum the integers in these files" ran `grep -o '[0-9]+' f1 f2 f3 | awk '{sum += $1} ...'`
in both runs of two tasks, both wrong.

A fourth shape: a stage that prints one line whatever it reads (an `awk` whose every print is in its `END`
block, a `wc` counting the pipe), then counted by `wc`: it prints 1 every time. Measured on AgentBench OS at
cc27a82: `find ... | xargs wc -c | awk '{sum += $1} END {print sum}' | wc -l` and another pipe of the same
ending both printed 1, which "confirmed" each other as the answer to a sum.

A fifth shape: a grep after a pipe that was given -r or file names. It searches the directory or those files
and never reads the lines piped into it, so the stages before it count for nothing. Measured on our own sets at
933f359: `grep -rn NAME . | grep -rl OTHER | grep -rl ...` for a call path; every later stage searched the
whole tree again.

A sixth shape: `gzip -c` (`--stdout`) whose compressed bytes are the command's output: nothing is written to a
file, and what it prints is binary no one reads (bash refuses to print it to a terminal). Measured on NL2Bash
fs_1-42 at a6351b3: "gzip the file keeping the original" ran `gzip -c ./hello.php`, and no .gz file was made.

A seventh shape: a count of a listing that lists the directory itself among the entries it was asked for. `ls -a`
lists `.` and `..`; `find .` lists `.`, whose name matches a hidden-name pattern like `-name '.*'`. Counted, each
adds one or two to a count of hidden files or directories. Measured on AgentBench OS at 529b167: test-68 ("how
many hidden directories directly inside") ran `find . -type d -name '.*' | sort | uniq | wc -l` in both seeds and
answered 4 for 2, once as `success`. A long `ls` of one directory (`-l`, `-n`, `-s`, …) prints a `total` line
before the entries, counted the same way: NL2Bash fs_5-0 at 4018844 ran `ls -l | wc -l` for a count of entries.
"""

from __future__ import annotations

import fnmatch
import os
import re
from pathlib import Path
from typing import List, Optional, Tuple

from ragix_core.core.types import PlanStep
from ragix_core.tools.grep_words import GREP_PROGRAMS, read_grep
from ragix_core.tools.globbing import expand_globs
from ragix_core.tools.lexer import short_flags, split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

from .steps import shown_command

__all__ = ["pipe_mistake", "step_mistake"]

# Stages that rank or group lines: on one line they do nothing, which says the pipe was meant to rank files.
# (`head`/`tail` after a count are harmless: `cat FILE | wc -l | head -1` is a right count.)
_RANKING = ("sort", "uniq")


def _counts_its_input(stage: List[str]) -> bool:
    """`wc` with counting options only: it reads the pipe and prints one number per count asked."""
    if stage_program(stage) != "wc" or len(stage) < 2:
        return False
    options = stage[1:]
    return all(w.startswith("-") and w != "-" and not w.startswith("--files0-from") for w in options)


def _listed_operands(stage: List[str]) -> Optional[List[str]]:
    """The operands of a stage that prints paths, one a line: find's starting points, ls's operands, the files
    of a `grep -l` that does not recurse. None for any other stage (or a listing of the working directory)."""
    program, words = stage_program(stage), stage[1:]
    if program == "find":
        starts = []
        for w in words:
            if w.startswith(("-", "(", "!")) or w in ("(", "!"):
                break
            starts.append(w)
        return starts or None
    if program == "ls":
        if any(w.startswith("-") and set(w[1:]) & set("dR") for w in words):
            return None  # -d lists the directories themselves, -R their trees: not this shape
        return [w for w in words if not w.startswith("-")] or None
    if program in ("grep", "egrep", "fgrep"):
        g = read_grep(words)
        recursive = set(g.flags) & set("rR") or {"--recursive", "--dereference-recursive"} & set(g.long_names)
        if "l" not in g.flags and "--files-with-matches" not in g.long_names or recursive:
            return None
        return [str(w) for w in g.operands] or None
    return None


def _counts_one_file(stages: List[List[str]], root: Path) -> Optional[str]:
    """One regular file listed, then counted. (Several files listed and counted is a count of the ones that
    exist or match: `grep -l TODO FILE1 FILE2 | wc -l` answers "how many of them mention TODO?".)"""
    for i, stage in enumerate(stages[:-1]):
        operands = _listed_operands(stage)
        if not operands or len(operands) != 1 or not os.path.isfile(os.path.join(root, operands[0])):
            continue
        if any(_counts_its_input(s) for s in stages[i + 1:]):
            return (f"`{stage_program(stage)}` was given `{operands[0]}`, which is a file, so it printed at most that "
                    "path and `wc` counted the paths, not what the file holds. To read a file's contents, give the "
                    "file to the command that reads it.")
    return None


def _prints_file_names(stage: List[str], root: Optional[Path]) -> bool:
    """A grep whose output lines start with the file's name: -H, -r, or more than one file (a glob that
    matches several, when the root is known); not with -h, nor -l/-L/-q (which print names only, or nothing)."""
    if stage_program(stage) not in GREP_PROGRAMS:
        return False
    g = read_grep(stage[1:])
    flags, longs = set(g.flags), set(g.long_names)
    if "h" in flags or "--no-filename" in longs or flags & set("lLq") or \
            {"--files-with-matches", "--files-without-match", "--quiet", "--silent"} & longs:
        return False
    if flags & set("HrR") or {"--with-filename", "--recursive", "--dereference-recursive"} & longs:
        return True
    files = list(g.operands)
    if root is not None:  # a glob counts as the files the executor would give grep
        try:
            files = expand_globs("grep", ["grep", *files], str(root))[1:]  # a first word is never globbed
        except Refusal:
            pass
    return len(files) >= 2


def _reads_leading_number(stage: List[str]) -> bool:
    """An awk adding up the line's first field (or the line) with the default separator, or a numeric sort
    on the whole line."""
    program, words = stage_program(stage), [str(w) for w in stage[1:]]
    if program == "awk":
        if any(w.startswith("-F") or w.startswith("-v") for w in words):
            return False
        body = next((w for w in words if not w.startswith("-")), "")
        return "+=" in body and bool(re.search(r"\$[01]\b", body)) and "split(" not in body and "FS" not in body
    if program == "sort":
        options = [w for w in words if w.startswith("-")]
        numeric = any(not w.startswith("--") and set(w[1:]) & set("ngh") for w in options) or \
            any(w in ("--numeric-sort", "--general-numeric-sort", "--human-numeric-sort") for w in options)
        keyed = any(not w.startswith("--") and set(w[1:]) & set("tk") for w in options) or \
            any(w.startswith(("--key", "--field-separator")) for w in options)
        return numeric and not keyed
    return False


def _reads_names_as_numbers(stages: List[List[str]], root: Optional[Path]) -> Optional[str]:
    for i, (stage, after) in enumerate(zip(stages, stages[1:])):
        picks = any(stage_program(s) in ("head", "tail") for s in stages[i + 2:])
        if stage_program(after) == "sort" and not picks:
            continue  # lines put in some order and all shown: harmless where only the lines were wanted
        if _prints_file_names(stage, root) and _reads_leading_number(after):
            return (f"`grep` read several files, so every line it printed starts with the file's name and a colon "
                    f"(`file.txt:5`), and `{stage_program(after)}` read that name where it expected a number. "
                    "`grep -h` prints the matching text without the file names.")
    return None


def _prints_one_line(stage: List[str]) -> bool:
    """A stage whose output is one line whatever it reads: a `wc` counting the pipe, or an `awk` that prints
    only in its END block."""
    if _counts_its_input(stage):
        return True
    if stage_program(stage) != "awk":
        return False
    body = next((str(w) for w in stage[1:] if not str(w).startswith("-")), "")
    end = re.search(r"\bEND\s*\{", body)
    return bool(end) and "print" not in body[:end.start()] and "print" in body[end.end():]


def _counts_one_line(stages: List[List[str]]) -> Optional[str]:
    for i, stage in enumerate(stages[:-1]):
        if _prints_one_line(stage) and any(_counts_its_input(s) for s in stages[i + 1:]):
            return (f"`{stage_program(stage)}` prints one line (its total), so the `wc` after it counted that one "
                    "line and prints 1 whatever the files hold. The line `"
                    f"{stage_program(stage)}` prints is the result; leave out the `wc`.")
    return None


def _greps_past_the_pipe(stages: List[List[str]]) -> Optional[str]:
    """A grep after a pipe given -r/-R or file operands (not -f, whose patterns may be the pipe)."""
    for stage in stages[1:]:
        if stage_program(stage) not in GREP_PROGRAMS:
            continue
        g = read_grep(stage[1:])
        longs = set(g.long_names)
        if "f" in g.flags or "--file" in longs:
            continue
        recursive = set(g.flags) & set("rR") or {"--recursive", "--dereference-recursive"} & longs
        if recursive or [o for o in g.operands if str(o) != "-"]:  # `-` names the pipe itself
            given = "-r" if recursive else "file names"
            return (f"the `grep` after a `|` was given {given}, so it searched "
                    f"{'the directory' if recursive else 'those files'} and never read the lines piped into it: the "
                    "stages before it count for nothing. To filter piped lines, write that grep with no -r and no "
                    "file name.")
    return None


def _compresses_to_the_output(stages: List[List[str]]) -> Optional[str]:
    """The last stage is a `gzip -c` that compresses (not -d, -t, -l): its binary output is the command's."""
    last = [str(w) for w in stages[-1]]
    if stage_program(last) != "gzip" or any(w.startswith(">") for w in last):
        return None  # redirected to a file: that file is the result
    flags = short_flags(last[1:])
    longs = {w for w in last[1:] if w.startswith("--")}
    to_output = "c" in flags or {"--stdout", "--to-stdout"} & longs
    other = set(flags) & set("dtl") or {"--decompress", "--uncompress", "--test", "--list"} & longs
    if not to_output or other:
        return None
    return ("`gzip -c` printed the compressed bytes as the command's output and wrote no file. To compress a file "
            "and keep the original, `gzip -k FILE` writes FILE.gz; `gzip -c FILE > FILE.gz` does the same.")


_LONG_FLAGS = set("lngos")  # ls formats that print a `total` line (blocks used) before one directory's entries
_TOTAL = "total N"  # its number unknown: a grep that matches only digits is not taken to keep it


def _one_directory(operands: List[str]) -> bool:
    """The operands of an `ls` name at most one directory, as far as the words tell: none, or one with no file
    suffix and no glob (`ls -l a.txt` prints no total line; a glob lists each directory under a header)."""
    return not operands or (len(operands) == 1 and not set(operands[0]) & set("*?[")
                            and (operands[0].endswith("/") or not os.path.splitext(operands[0])[1]))


def _lists_its_own_directory(stage: List[str]) -> Optional[Tuple[str, List[str]]]:
    """(what, the lines) the stage prints besides the entries: `.` and `..` for `ls -a` (not -A, not -d), and the
    `total` line of a long `ls` of one directory (-l, -n, -g, -o, -s; not -d); `.` for a `find` from `.` whose
    `-name`/`-iname` pattern matches "." (`'.*'`), not negated, with no `-mindepth`, no `-type` but d and no action
    of its own (-printf, -ls, -exec)."""
    program, words = stage_program(stage), [str(w) for w in stage[1:]]
    if program == "ls":
        flags = short_flags(words)
        listed_itself = "d" in flags or "--directory" in words
        every = ("a" in flags or "--all" in words) and not (set(flags) & set("A") or "--almost-all" in words)
        long = bool(set(flags) & _LONG_FLAGS)
        recursive = "R" in flags or "--recursive" in words  # a total per directory, under headers
        total = long and not (listed_itself or recursive) and _one_directory([w for w in words if not w.startswith("-")])
        dots = every and not listed_itself
        if not (total or dots):
            return None
        lines = [_TOTAL] if total else []
        lines += [f"drwxr-xr-x 2 user user 4096 Jan 1 00:00 {d}" if long else d for d in (".", "..")] if dots else []
        return "", lines  # what it printed is said of the lines a count kept (_counts_its_own_directory)
    if program != "find" or not words or words[0].rstrip("/") != "." or "-mindepth" in words:
        return None
    if any(w in words for w in ("-printf", "-fprintf", "-ls", "-fls", "-exec", "-execdir", "-print0")):
        return None
    if any("d" not in t for a, t in zip(words, words[1:]) if a == "-type"):
        return None
    for i, (test, pattern) in enumerate(zip(words, words[1:])):
        negated = i > 0 and words[i - 1] in ("!", "-not")
        if test in ("-name", "-iname") and not negated and fnmatch.fnmatchcase(".", pattern):
            return f"`find {words[0]}` lists `{words[0]}` itself, and its name matches `{test} '{pattern}'`", [words[0]]
    return None


def _grep_keeps(stage: List[str], lines: List[str]) -> Optional[List[str]]:
    """The ``lines`` a plain grep stage lets through (its one pattern read as a Python regex, which agrees with
    grep on the simple patterns that pick dot entries: `^\\.`, `^d`); None when that cannot be told."""
    g = read_grep(stage[1:])
    if not g.pattern or "e" in g.flags or set(g.flags) & set("Fwxo") or g.operands or g.long_names:
        return None
    try:
        found = re.compile(str(g.pattern[-1]), re.IGNORECASE if "i" in g.flags else 0)
    except re.error:
        return None
    return [ln for ln in lines if bool(found.search(ln)) != ("v" in g.flags)]


def _counts_its_own_directory(stages: List[List[str]]) -> Optional[str]:
    """A listing of the directory itself (`ls -a`, `find . -name '.*'`) whose dot lines reach a count: `wc` reading
    the pipe, or a `grep -c`; only sort, uniq and plain greps between (each grep's pattern applied to them)."""
    for i, stage in enumerate(stages[:-1]):
        listed = _lists_its_own_directory(stage)
        if listed is None:
            continue
        what, lines = listed
        for later in stages[i + 1:]:
            program = stage_program(later)
            counts_matches = program in GREP_PROGRAMS and "c" in read_grep(later[1:]).flags
            if program in GREP_PROGRAMS:
                kept = _grep_keeps(later, lines)
                if kept is None:
                    return None
                lines = kept
            if not lines:
                return None
            if _counts_its_input(later) or counts_matches:
                dots = [d for d in lines if d != _TOTAL]
                what = what or " and ".join(
                    (["`ls -a` lists `.` and `..` (the directory and its parent)"] if dots else [])
                    + (["a long `ls` prints a `total` line (the blocks its entries use) before them"]
                       if _TOTAL in lines else []))
                fixes = ["`-mindepth 1` leaves the starting directory out"] if stage_program(stage) != "ls" else \
                    (["`ls -A` lists the hidden entries without them"] if dots else []) + \
                    (["`ls -1` lists the names alone (`ls -1A` with the hidden ones), and after `ls -l` "
                      "`grep -c '^-'` counts the files' rows, `grep -c '^d'` the directories'"] if _TOTAL in lines else [])
                counted = " and ".join(["the `total` line"] * (_TOTAL in lines) + [f"`{d.split()[-1]}`" for d in dots])
                return (f"{what}, so the count includes {counted}, not only the entries in the directory. "
                        f"{'; '.join(fixes)}.")
            if program not in _RANKING + GREP_PROGRAMS:
                return None
    return None


def step_mistake(step: PlanStep) -> Optional[str]:
    """The mistake recorded when the step ran (its result's ``mistake``, found with the files at hand),
    else what the command's shape alone shows."""
    recorded = step.result.mistake if step.result is not None else None
    return recorded or pipe_mistake(shown_command(step))


def pipe_mistake(command: str, root: Optional[Path] = None) -> Optional[str]:
    """What is wrong with ``command``'s shape, as a sentence for the model's next request; None if nothing is.
    ``root``: the directory the command ran in, for the shapes that depend on what its operands are."""
    try:
        stages = split_pipeline(command)
    except Refusal:
        return None
    if root is not None:
        why = _counts_one_file(stages, root)
        if why:
            return why
    why = (_reads_names_as_numbers(stages, root) or _counts_one_line(stages) or _greps_past_the_pipe(stages)
           or _compresses_to_the_output(stages) or _counts_its_own_directory(stages))
    if why:
        return why
    for i, stage in enumerate(stages[1:], start=1):
        if not _counts_its_input(stage):
            continue
        after = [stage_program(s) for s in stages[i + 1:] if stage_program(s) in _RANKING]
        if after:
            return (f"`{' '.join(stage)}` read the lines piped into it and printed one number (how many lines "
                    f"the stages before it printed), so the `{after[0]}` after it had a single line to rank. "
                    "To count the lines of each file, the files themselves must reach `wc` (through `xargs`), "
                    "not the list of their names.")
    return None
