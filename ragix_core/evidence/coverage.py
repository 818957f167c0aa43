"""Whether the evidence covers the files a goal asks to count.

A small planner answers "compare the line counts of README.md and CHANGELOG.md" with
``find . -name '*.md' | xargs wc -l | sort -n | head -n 1``: one row, for another file
(measured, three-set run of 5ae6fa5). The writer then states counts for the two named
files that no output shows ("README.md is 6, CHANGELOG.md is 10"), and nothing is left to
bind them to. A person would count the named files before answering; ragix does the same,
without a model: when a goal asks about line counts of files it names, and a named file
exists but no successful step printed a count row for it, ``wc -l`` runs on the named files
as one more step (then binding.py checks the answer against that table).

Only line-count goals: for other goals a named file the outputs do not show may be the
target of a search ("which modules depend on models.py?"), not a file to read, and
reading it would put its name in front of a writer that lists what it is shown.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import List, Sequence

from ragix_core.core.types import PlanStep, StepStatus

from .path_hints import goal_files, small_text_files

__all__ = ["asks_line_counts", "goal_files_to_count"]

# "how many lines", "line count(s)", "number of lines", and comparisons of length.
_LINE_COUNT = re.compile(r"\b(how many lines|line counts?|number of lines|longer|shorter|more lines|fewer lines)\b",
                         re.IGNORECASE)
MAX_FILE_BYTES = 1 << 20  # wc reads any size; the cap only keeps odd files (devices, huge logs) out


def asks_line_counts(goal: str) -> bool:
    return bool(_LINE_COUNT.search(goal or ""))


def _counted(name: str, steps: Sequence[PlanStep]) -> bool:
    """A successful step printed a ``<number> <name>`` row (wc -l) for ``name``."""
    for step in steps:
        if step.status != StepStatus.SUCCESS or step.result is None:
            continue
        for line in (step.result.stdout or "").splitlines():
            words = line.split()
            if len(words) == 2 and words[0].isdigit() and words[1] in (name, f"./{name}"):
                return True
    return False


def goal_files_to_count(goal: str, steps: Sequence[PlanStep], root: Path) -> List[str]:
    """Every existing file a line-count ``goal`` names, in the goal's order, when a successful step's
    output counted not all of them; [] otherwise and for other goals. All of them, so that the
    counts end up in one table (binding.py compares the rows of one output)."""
    if not asks_line_counts(goal):
        return []
    named = small_text_files(goal_files(goal), root, max_bytes=MAX_FILE_BYTES)
    return named if any(not _counted(name, steps) for name in named) else []
