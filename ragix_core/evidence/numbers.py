"""Numbers in a written answer that no command output supports.

A 1.5B writer states numbers it did not read. Measured in the three-set run
(benchmarks/results/issue12/2026-11-27-three-sets-cc38362.json): "the server listens on port
80" (the config says another port; no output showed either), "CHANGELOG.md is 10 lines" (no
output held CHANGELOG's count). Such a number cannot be traced to the evidence, so the answer says so:
ragix marks it instead of letting it pass as read.

A number is supported when it is written in the goal, a command (standing alone: not the 3 of a
command's `dir3`), an output or a ragix note, or
when it can be derived from the outputs the simple ways answers do: a count of output lines
(any number up to the longest command output's line count), or the sum or difference of two numbers
the outputs show ("longer by 7 lines"). Whole integers written as such are checked (not the
digits of a name like test_2.py, nor 1,234); 0 and 1 always pass. A dotted version (1.2.3, an
address like 10.0.0.1) is supported only when it is written somewhere as it stands: measured at
temperature 0.3 on the regression set, "The project version is 0.1.0" after three commands that
found nothing, where the project says another. So is a digest (eight or more hex digits, with a
letter and a digit: an md5 or sha sum, a commit id), which no writer can work out: measured on
NL2Bash fs_1-110 at 7defe0e, "the md5 sum of the sorted sums is e660d8a2...", a digest no command
printed, ended `success`.
"""

from __future__ import annotations

import re
from itertools import combinations
from typing import Iterable, List, Sequence, Set

from ragix_core.core.types import PlanStep

__all__ = ["unsupported_numbers", "mark_unsupported_numbers", "marks_unsupported", "derived_numbers"]

_ANSWER_NUMBER = re.compile(r"(?<![\w.,])\d+(?![\w.,]*\w)")  # 80, "80." at a sentence end; not 1.2.3, 1,234
_ANY_DIGITS = re.compile(r"\d+")
_VERSION = re.compile(r"(?<![\w.])v?(\d+(?:\.\d+){2,})(?![\w.]*\w)")  # 1.2.3, v1.2.3, 10.0.0.1; not 3.5
_DIGEST = re.compile(r"(?<![\w.])(?=[0-9a-fA-F]*[a-fA-F])(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{8,}(?![\w.]*\w)")
_MARKED = re.compile(r"[0-9a-fA-F]{8,}|\d+(?:\.\d+)*")
# The digits ending a name (dir3, file_2, subdir4), not an option's or a script's (-n3, -f2, 3p, NR==3, $3)
_NAME_DIGITS = re.compile(r"(?<=[A-Za-z_]{2})\d+")
# A path or a file name with an extension (./employees/105.txt, file2.log): the digits in it name a file.
_PATH_WORD = re.compile(r"(?:[\w.-]*/)+[\w.-]*|[\w-]+\.[A-Za-z]\w{0,5}\b")
MAX_PAIRED = 80  # distinct output numbers combined into sums and differences
MAX_FLAGGED = 5
_MARK_START = "(ragix: no command output shows "
_MARK = re.compile(r"\n*" + re.escape(_MARK_START) + r"[^)]*\)")


def _command_numbers(command: str) -> str:
    """A command line without the digits of its names: `mkdir -p a/dir1/dir2/dir3` states no 3
    (measured on AgentBench OS test-66 at 89b7b60: the writer answered "3" after that one mkdir)."""
    return _NAME_DIGITS.sub("", command)


def _texts(goal: str, steps: Sequence[PlanStep]) -> Iterable[str]:
    yield goal
    for step in steps:
        if step.tool_call is not None:
            yield _command_numbers(" ".join(str(v) for v in step.tool_call.args.values()))
        r = step.result
        if r is not None:
            yield from (r.stdout or "", r.stderr or "", r.error or "", _command_numbers(r.command or ""))


def _outputs(steps: Sequence[PlanStep]) -> Iterable[str]:
    return (s.result.stdout or "" for s in steps if s.result is not None)


def _supported(texts: Sequence[str], outputs: Iterable[str]) -> Set[int]:
    """The numbers ``texts`` show, their sums and differences, and every count up to the longest of
    ``outputs`` in lines: a count of a goal's lines is no count of anything asked (AgentBench OS
    test-66 at cda4bc3: its five-line task text "supported" the 3 a lone mkdir left unexplained)."""
    shown: List[int] = []
    for text in texts:
        shown.extend(int(d) for d in _ANY_DIGITS.findall(text) if len(d) <= 15)
    longest = max((sum(1 for line in out.splitlines() if line.strip()) for out in outputs), default=0)
    supported = set(shown) | set(range(longest + 1)) | {0, 1}
    distinct = list(dict.fromkeys(shown))[:MAX_PAIRED]
    for a, b in combinations(distinct, 2):
        supported.update((a + b, abs(a - b)))
    return supported


def _written(value: str, texts: Sequence[str]) -> bool:
    """A version or digest is supported only as written somewhere (a digest in any case)."""
    if "." in value:
        whole = re.compile(r"(?<![\d.])" + re.escape(value) + r"(?!\.?\d)")
    else:
        whole = re.compile(r"(?<![0-9a-fA-F])" + re.escape(value) + r"(?![0-9a-fA-F])", re.IGNORECASE)
    return any(whole.search(text) for text in texts)


def unsupported_numbers(goal: str, answer: str, steps: Sequence[PlanStep]) -> List[str]:
    """The integers, dotted versions and digests ``answer`` states that nothing in the goal or the steps
    supports, in the order the answer states them. Empty when no step ran (an answer from
    knowledge has no outputs to check against)."""
    if not answer or not any(s.result is not None for s in steps):
        return []
    versions = {m.start(1): m.group(1) for m in _VERSION.finditer(answer)}
    digests = {m.start(): m.group(0) for m in _DIGEST.finditer(answer)}
    integers = {m.start(): m.group(0) for m in _ANSWER_NUMBER.finditer(answer) if len(m.group(0)) <= 15}
    stated = list(dict.fromkeys(text for _, text in sorted({**integers, **versions, **digests}.items())))
    if not stated:
        return []
    texts = list(_texts(goal, steps))
    supported = _supported(texts, _outputs(steps))
    return [n for n in stated if (not _written(n, texts) if not n.isdigit() else int(n) not in supported)][:MAX_FLAGGED]


def derived_numbers(goal: str, answer: str, steps: Sequence[PlanStep]) -> List[str]:
    """The integers above 1 that ``answer`` states and that nothing written shows: neither the goal, a
    command nor an output holds them, so the writer computed them (counted lines, added numbers up).
    ``unsupported_numbers`` lets such a number pass as derivable; this names it, so that a command can
    compute it instead (reasoning_v30/direct.py). Measured on AgentBench OS at 0822586: a total of
    minutes summed by the writer from the lines of a `grep -rn` (100, where the files add up to 230).
    A number written only inside a path or file name (``./employees/105.txt``) is a name, not one the
    output shows: at bd99fa4 the same task answered 105, an employee's id, and ended ``success``.
    Empty when no step ran."""
    if not answer or not any(s.result is not None for s in steps):
        return []
    shown = {int(d) for text in _texts(goal, steps) for d in _ANY_DIGITS.findall(_PATH_WORD.sub(" ", text))
             if len(d) <= 15}
    stated = (m.group(0) for m in _ANSWER_NUMBER.finditer(_MARK.sub("", answer)) if len(m.group(0)) <= 15)
    return [n for n in dict.fromkeys(stated) if int(n) > 1 and int(n) not in shown]


def mark_unsupported_numbers(goal: str, answer: str, steps: Sequence[PlanStep]) -> str:
    """``answer``, followed by ragix's note naming the numbers no output supports (if any). An
    answer grounded twice (the writer's, then VERIFY's with its doubt appended) is marked once:
    numbers already named in a mark are not checked again."""
    marked = {n for mark in _MARK.findall(answer or "") for n in _MARKED.findall(mark)}
    missing = [n for n in unsupported_numbers(goal, _MARK.sub("", answer or ""), steps) if n not in marked]
    if not missing:
        return answer
    which = ", ".join(missing)
    return (f"{answer.rstrip()}\n\n{_MARK_START}{which}; "
            f"{'this number was' if len(missing) == 1 else 'these numbers were'} not read from the evidence.)")


def marks_unsupported(answer: str) -> bool:
    """``answer`` carries ragix's note that a number it states was not read from the evidence."""
    return bool(_MARK.search(answer or ""))
