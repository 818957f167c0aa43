"""The search behind a pipeline whose last stages threw away what the goal asks for.

Small models end a search with a reducer the goal did not ask for. Measured in the three-set
run (benchmarks/results/issue12/2026-11-27-three-sets-cc38362.json): "Which file imports
module a?" ran ``grep -rl 'from a import' . | wc -l`` and answered from the ``1`` it printed;
"Find FIXME comments ..." ran ``grep -rn FIXME . | cut -d: -f2-`` and the file name was gone.
The search's own lines hold the answer, so for such a goal ragix runs the search alone as the
step's evidence and tells the writer what the reducer had printed.

A reduction is left alone when it is the answer: a count the goal asks for (and no names), or
one item picked by a superlative ("the largest", "the first") with ``sort | head``; unless it
printed nothing at all. Measured at temperature 0.3 (a9a2574): `grep -rn 'def' FILE.py | cut
-d: -f3` printed blank lines (one file's grep has no file-name field), and the writer answered
three functions the file does not define; 7 of 55 empty pipelines in the stored traces were a
search that found lines cut down to nothing.
"""

from __future__ import annotations

import os
import re
from typing import List, Optional, Tuple

from ragix_core.core.asks import asks_quantity
from ragix_core.tools.lexer import first_pipe, split_pipeline
from ragix_core.tools.policy import TRUNCATING_FILTERS, is_wc_total_line
from ragix_core.tools.refusal import Refusal

__all__ = ["asked_extreme", "search_behind_reduction", "table_behind_total", "total_left_out", "total_summed",
           "reversed_ranking", "SEARCHES", "REDUCERS"]

SEARCHES = {"grep", "egrep", "fgrep", "find"}
# Stages that only shorten, count or reorder what they are given: their output never holds a
# fact the search's lines do not.
REDUCERS = {"wc", "cut", "head", "tail", "sort", "uniq", "tr", "awk"}
# sed reduces when every command of its script only deletes: `s/RE//`, `[ADDR]d`, or with -n
# `[ADDR]p`. Measured on the regression set at 7fdd634: `grep -i -rn WORD . | awk '{print $3}' |
# sed 's/\n$//'` printed `FILE.`, the model's verifier called that "no match", and the run spent
# its reflection and went over its step budget; the search alone prints the line asked for.
_SED_ADDRESS = r"(?:\d+|\$|/(?:\\.|[^/\\])*/)(?:,(?:\d+|\$|/(?:\\.|[^/\\])*/))?"
_SED_DELETE = re.compile(rf"(?:{_SED_ADDRESS})?d|s([^\\\n\w\s])(?:\\.|(?!\1).)*\1\1[gI0-9]*")
_SED_PRINT = re.compile(rf"(?:{_SED_ADDRESS})?p")

# A goal that asks for names: "which", "where", "list", "name the ...", "the names (of) ...". Not a name that only
# describes what is counted: "How many files whose name starts with a letter" (AgentBench OS test-22 at 84b1783:
# read as asking names, its `grep -rl … | wc -l` was shown as the list, the writer counted it wrong, and the run
# ended `success` with no cross-check).
_NAMES = re.compile(r"\b(which|where|list|name (?:the|all|every|each|them|it|those|these)|the names|names of|"
                    r"what (?:files?|modules?|lines?))\b", re.IGNORECASE)
_LARGEST = re.compile(r"\b(largest|biggest|longest|(?<!at )most|highest)\b", re.IGNORECASE)
_SMALLEST = re.compile(r"\b(smallest|shortest|fewest|(?<!at )least|lowest)\b", re.IGNORECASE)
_ONE_ITEM = re.compile(r"\b(largest|smallest|biggest|longest|shortest|most|fewest|least|first|last|top|"
                       r"highest|lowest|latest|oldest|newest)\b", re.IGNORECASE)


def asked_extreme(goal: str) -> Optional[str]:
    """"largest" or "smallest" when ``goal`` asks for one end of a ranking (not both, not "at
    most"/"at least"), else None."""
    largest, smallest = bool(_LARGEST.search(goal or "")), bool(_SMALLEST.search(goal or ""))
    if largest == smallest:
        return None
    return "largest" if largest else "smallest"


def _wants_reduction(goal: str) -> bool:
    """The goal's answer is what a reducer prints: a bare count, or one item of a ranking."""
    if _ONE_ITEM.search(goal):
        return True
    return asks_quantity(goal) and not _NAMES.search(goal)


def search_behind_reduction(goal: str, command: str, *, printed_nothing: bool = False) -> Optional[Tuple[str, str]]:
    """``(search, tail)`` when ``command`` is a search (grep, find) followed only by reducers and
    ``goal`` does not ask for what they print, or (``printed_nothing``) the pipeline printed nothing
    at all, whatever the goal asks; ``search`` is the first stage as a command of its own, ``tail``
    the stages dropped. None otherwise (and for any command ragix's lexer refuses)."""
    if not goal or (_wants_reduction(goal) and not printed_nothing):
        return None
    try:
        stages = split_pipeline(command or "")
    except Refusal:
        return None
    if len(stages) < 2 or any(not stage for stage in stages):
        return None
    tools = [os.path.basename(str(stage[0])) for stage in stages]
    if tools[0] not in SEARCHES or not all(_reduces(tool, stage) for tool, stage in zip(tools[1:], stages[1:])):
        return None
    cut = first_pipe(command)
    if cut is None:
        return None
    # The search as written (a glob stays a glob), checked to be the same words the lexer read.
    search, tail = command[:cut].strip(), command[cut + 1:].strip()
    try:
        if split_pipeline(search) != [stages[0]]:
            return None
    except Refusal:
        return None
    return search, tail


def _reduces(tool: str, stage: List[str]) -> bool:
    """The stage only shortens, counts or reorders its input (``REDUCERS``, or a sed that deletes)."""
    return tool in REDUCERS or (tool == "sed" and _sed_only_deletes([str(w) for w in stage[1:]]))


def _sed_only_deletes(args: List[str]) -> bool:
    """``args`` (sed's words after its name) hold one script, or -e scripts, each of whose commands
    (split on ``;``) deletes text or lines; ``-n`` turns printing commands into line selections.
    Options that read a script file, edit in place or change the output are not a reduction."""
    quiet, scripts, i = False, [], 0
    while i < len(args):
        word = args[i]
        if word in ("-e", "--expression"):
            scripts.extend(args[i + 1:i + 2])
            i += 2
            continue
        if word in ("-n", "--quiet", "--silent"):
            quiet = True
        elif word in ("-E", "-r", "--regexp-extended", "--sandbox"):
            pass
        elif word.startswith("-"):
            return False
        elif not scripts:
            scripts.append(word)
        else:
            return False  # a file operand: sed reads it, not the search
        i += 1
    command = _SED_PRINT if quiet else _SED_DELETE
    parts = [part.strip() for script in scripts for part in script.split(";")]
    return bool(parts) and all(command.fullmatch(part) for part in parts)


def _stages(command: str) -> Optional[Tuple[list, List[str]]]:
    """``command``'s stages as the lexer reads them, and each stage's program; None if it refuses it."""
    try:
        stages = split_pipeline(command or "")
    except Refusal:
        return None
    return stages, [os.path.basename(str(stage[0])) if stage else "" for stage in stages]


def _pipes(command: str) -> list:
    """The indexes of the top-level '|' of ``command`` (quoting kept, as ``first_pipe`` reads it)."""
    out, start = [], 0
    while True:
        cut = first_pipe(command[start:])
        if cut is None:
            return out
        out.append(start + cut)
        start += cut + 1


def table_behind_total(command: str, output: str) -> Optional[Tuple[str, str]]:
    """``(table, tail)`` when the last stages of ``command`` are head/tail and kept only wc's
    "total" line of the table before them: ``table`` is the pipeline without them, ``tail`` the
    stages dropped. Measured on the regression set (try-first at fc92558): `find . -name '*.py' |
    xargs wc -l | sort -n | tail -n 1` printed `67 total`, twice, and the vote agreed on it; the
    sum says nothing about which file is largest."""
    lines = [line for line in (output or "").splitlines() if line.strip()]
    if len(lines) != 1 or not is_wc_total_line(lines[0]):
        return None
    read = _stages(command)
    if read is None:
        return None
    stages, tools = read
    kept = len(tools)
    while kept > 1 and tools[kept - 1] in TRUNCATING_FILTERS:
        kept -= 1
    if kept == len(tools) or _wc_stage(tools[:kept], stages[:kept]) is None:
        return None
    pipes = _pipes(command)
    if len(pipes) != len(tools) - 1:
        return None
    cut = pipes[kept - 1]
    return command[:cut].strip(), command[cut + 1:].strip()


# The filter ragix puts after wc's table when its "total" line is all a ranking kept: what a person
# does on seeing it (one file named "total" would be left out too; wc prints it as "N ./total").
TOTAL_FILTER = "grep -v ' total$'"


def total_left_out(command: str, output: str) -> Optional[Tuple[str, str]]:
    """``(command, what ragix says)`` when ``command`` ranked a wc table and its last head/tail kept only
    the table's "total" line (``table_behind_total``): the same pipeline with the total line filtered
    out right after wc, so the ranking names a file. The total sorts above every file, so `xargs wc
    -l | sort -nr | head -n 1` prints it in bash too; measured on the regression set (try-first at
    fc92558), the vote agreed on `67 total` for the largest file. None otherwise."""
    if table_behind_total(command, output) is None:
        return None
    read = _wc_pipeline(command)
    if read is None:
        return None
    stages, tools, pipes, at = read
    after = tools[at + 1:]
    if "sort" not in after or any(t not in ("sort", *TRUNCATING_FILTERS) for t in after):
        return None  # no ranking (`| tail -n 1` is how the sum is read), or something else reads the table
    fixed = _with_filter_after(command, pipes, at)
    return fixed, ("wc's \"total\" line sorts above every file, and the ranking kept only it: ragix ran it "
                   "without that line")


def _wc_stage(tools: List[str], stages: list) -> Optional[int]:
    """The index of the last stage that is wc or xargs running wc, or None."""
    found = [i for i, (t, stage) in enumerate(zip(tools, stages))
             if t == "wc" or (t == "xargs" and "wc" in map(str, stage))]
    return found[-1] if found else None


def _wc_pipeline(command: str) -> Optional[Tuple[list, List[str], List[int], int]]:
    """``(stages, tools, pipes, at)`` for a pipeline with a wc stage (``at``: the last one, ``_wc_stage``) whose
    pipes were all found in the text; None otherwise."""
    read = _stages(command)
    pipes = _pipes(command)
    if read is None or len(pipes) != len(read[1]) - 1:
        return None
    stages, tools = read
    at = _wc_stage(tools, stages)
    return None if at is None else (stages, tools, pipes, at)


def _with_filter_after(command: str, pipes: List[int], at: int) -> str:
    cut = pipes[at]
    return f"{command[:cut].rstrip()} | {TOTAL_FILTER} |{command[cut + 1:]}"


def total_summed(command: str) -> Optional[Tuple[str, str]]:
    """``(command, what ragix says)`` when ``command`` adds up a wc table with an awk that sums (`+=`) or
    `paste -s`: the same pipeline with wc's "total" line filtered out right after wc. wc given several files
    prints that line, so the sum counts every file twice, in bash as here; measured on the three sets at bd99fa4,
    ten pipes `xargs wc -l | awk '{sum += $1} END {print sum}'`. The caller keeps the first run when the filter
    changed nothing (one file: no total line). None for any other shape."""
    read = _wc_pipeline(command)
    if read is None:
        return None
    stages, tools, pipes, at = read
    sums = any((t == "awk" and any("+=" in str(w) for w in stage[1:]))
               or (t == "paste" and any(str(w).startswith("-") and not str(w).startswith("--") and "s" in str(w)
                                        for w in stage[1:]))
               for t, stage in zip(tools[at + 1:], stages[at + 1:]))
    if not sums or tools[at + 1] == "grep":  # already filtered (`| grep -v total`)
        return None
    return (_with_filter_after(command, pipes, at),
            "wc's \"total\" line would be summed with the files' rows: ragix ran it without that line")


def reversed_ranking(goal: str, command: str) -> Optional[Tuple[str, str]]:
    """``(command, what ragix says)`` when ``goal`` asks for the largest (or the smallest) and the
    last numeric ``sort`` of ``command``, followed at once by head or tail, keeps the other end:
    ``command`` with that head and tail swapped. Measured at temperature 0.3 on the
    regression set (a9a2574): `find . -name '*.md' -type f | xargs wc -l | sort -n | head -n 1`
    printed `6 ./docs/FILE.md`, answered as the largest file. None otherwise."""
    asked = asked_extreme(goal)
    if asked is None:
        return None
    largest = asked == "largest"
    read = _stages(command)
    if read is None:
        return None
    stages, tools = read
    pipes = _pipes(command)
    if len(pipes) != len(tools) - 1:
        return None
    at = next((i for i in range(len(tools) - 2, -1, -1) if tools[i] == "sort" and tools[i + 1] in ("head", "tail")), None)
    if at is None:
        return None
    options = [str(w) for w in stages[at][1:] if str(w).startswith("-")]
    short = "".join(w[1:] for w in options if not w.startswith("--"))
    if not ("n" in short or "h" in short or {"--numeric-sort", "--human-numeric-sort"} & set(options)):
        return None  # a sort by text says nothing about size
    keeps_largest = ("r" in short or "--reverse" in options) != (tools[at + 1] == "tail")
    if keeps_largest == largest:
        return None
    start = pipes[at] + 1
    end = pipes[at + 1] if at + 1 < len(pipes) else len(command)
    stage = command[start:end]
    word = tools[at + 1]
    other = "tail" if word == "head" else "head"
    fixed = command[:start] + stage.replace(word, other, 1) + command[end:]
    return fixed, (f"the goal asks for the {asked}, and `{' '.join(str(w) for w in stages[at])} | {word}` keeps the "
                   f"other end: ragix ran it with {other}")
