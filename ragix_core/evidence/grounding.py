"""Keep the written answer faithful to what the tools listed.

Small writers summarise: asked for "all files containing X", a 1.5B model names
the first match of two. When the goal asks for a listing, the files that the
last evidence-bearing step printed are checked against the answer, and any the
answer omits are appended, quoted as the tool output they come from. Only
paths that exist in the project count, so nothing the model (or a stray line of
output) invented is ever added; goals that ask for one item (largest, first,
...) are left alone, since listing every candidate would bury the answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Optional, Sequence

from ragix_core.core.types import PlanStep, StepStatus
from ragix_core.tools.policy import is_wc_total_line

from .path_hints import stand_ins
from .steps import step_output, writes_not_run

# No command quoted: a number in it would be the answer's last number to a reader that takes that one.
WRITES_NOT_RUN = ("ragix did not run the plan's commands that write: this run may only read "
                  "(start ragix with --yes to allow writes)")

__all__ = ["ground_answer", "listed_paths", "asks_for_listing", "LISTED_PREFIX", "without_listing"]

MAX_APPENDED = 30
# The line grounding appends; evaluation strips it to judge the writer's own answer.
LISTED_PREFIX = "Also listed in the output"
_LISTED_LINE = re.compile(r"\n*^" + re.escape(LISTED_PREFIX) + r"\b[^\n]*", re.MULTILINE)

# "all/every/list ..." or "which/what <...> files|modules|...": a plural the tools enumerate.
_LISTING = re.compile(
    r"\b(all|every|each|list)\b"
    r"|\b(which|what)\s+(\w+\s+){0,2}(files|modules|scripts|tests|functions|classes|directories|folders|items)\b",
    re.IGNORECASE)
_ONE_ITEM = re.compile(
    r"\b(largest|smallest|biggest|longest|shortest|most|fewest|least|first|last|top|highest|lowest|how many|count)\b",
    re.IGNORECASE)
_GREP_LINE = re.compile(r"^(\S+?):\d+[:-]")  # grep -n: path:line:text
_COUNTED = re.compile(r"^\s*\d+\s+(\S+)\s*$")  # wc -l / uniq -c: count path


def asks_for_listing(goal: str) -> bool:
    return bool(_LISTING.search(goal)) and not _ONE_ITEM.search(goal)


def _candidate(line: str) -> Optional[str]:
    m = _GREP_LINE.match(line)
    if m:
        return m.group(1)
    m = _COUNTED.match(line)
    if m:
        return m.group(1)
    text = line.strip()
    return text if text and " " not in text and ":" not in text else None


def listed_paths(output: str, root: Path) -> List[str]:
    """Existing project files named in a tool's output, in order, without repeats."""
    seen: List[str] = []
    root = root.resolve()
    for line in output.splitlines():
        cand = _candidate(line)
        if not cand or is_wc_total_line(line) or cand in seen:
            continue
        try:
            path = (root / cand).resolve()
        except (OSError, ValueError):
            continue
        if path.is_file() and path.is_relative_to(root):
            seen.append(cand)
    return seen


def _mentioned(path: str, answer: str) -> bool:
    text = answer.lower()
    clean = path[2:] if path.startswith("./") else path
    return clean.lower() in text or Path(clean).name.lower() in text


def ground_answer(goal: str, answer: str, steps: Sequence[PlanStep], root: Path) -> str:
    """The answer, plus ragix's own corrections it does not mention (a wrong path replaced by an
    existing one: the user must know the answer is about another file), the same for a path the
    goal named that the model's commands silently replaced, a note that the plan's writes were not
    made, plus the listed files it left out when the goal asks for a listing."""
    if not answer:
        return answer
    for step in steps:
        note = step.tool_call.args.get("note") if step.tool_call and step.status == StepStatus.SUCCESS else None
        if note and note not in answer:
            answer = f"{answer.rstrip()}\n\nNote: {note}."
    if writes_not_run(list(steps)) and WRITES_NOT_RUN not in answer:
        answer = f"{answer.rstrip()}\n\nNote: {WRITES_NOT_RUN}."
    ran = [str(s.tool_call.args.get("command") or "") for s in steps if s.tool_call and s.status == StepStatus.SUCCESS]
    for named, used in stand_ins(goal, ran, root):
        if not _mentioned(used, answer):
            answer = f"{answer.rstrip()}\n\nNote: {named} does not exist; this answer is from {used}."
    return _add_omitted_files(goal, answer, steps, root)


def _add_omitted_files(goal: str, answer: str, steps: Sequence[PlanStep], root: Path) -> str:
    if not asks_for_listing(goal):
        return answer
    evidence = [s for s in steps if s.status == StepStatus.SUCCESS and step_output(s).strip()]
    if not evidence:
        return answer
    last = evidence[-1]
    paths = listed_paths(step_output(last), root)
    missing = [p for p in paths if not _mentioned(p, answer)][:MAX_APPENDED]
    if not missing:
        return answer
    command = str(last.tool_call.args.get("command") or "") if last.tool_call else ""
    source = f" of `{command}`" if command else ""
    return f"{answer.rstrip()}\n\n{LISTED_PREFIX}{source}: {', '.join(missing)}"


def without_listing(answer: str) -> str:
    """``answer`` without the listing lines grounding appended: what the writer itself said."""
    return _LISTED_LINE.sub("", answer or "")
