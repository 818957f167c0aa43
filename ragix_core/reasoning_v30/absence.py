"""When a finished plan's result is an absence that may only be a wrong pattern or path.

An empty search agrees with itself whether its pattern was right or wrong, so EXECUTE doubts a
plan whose evidence is only absences (``doubt_empty``) and ragix first reads the small files the
goal or the searches named (``named_file_looks``). A listing of files (ls, find, wc) says nothing
about what the files contain, so empty searches beside listings are an absence too.
"""

from __future__ import annotations

from typing import List

from ragix_core.core.types import PlanStep, ReasoningState, StepStatus
from ragix_core.evidence.steps import found_nothing
from ragix_core.tools.policy import SEARCH_TOOLS

from .plans import LISTING_TOOLS, command_of, programs

__all__ = ["all_empty", "searches_empty"]


def all_empty(steps: List[PlanStep]) -> List[PlanStep]:
    """The successful ``steps`` when there are some and every one found nothing; else []."""
    succeeded = [s for s in steps if s.status == StepStatus.SUCCESS]
    return succeeded if succeeded and all(found_nothing(s) for s in succeeded) else []


def searches_empty(state: ReasoningState) -> bool:
    """Some successful step searched (grep), every such search found nothing, and every other
    successful step only listed files (ls, find, wc, ...) or found nothing too."""
    succeeded = [s for s in state.executed_steps if s.status == StepStatus.SUCCESS]
    stages = [(s, programs(command_of(s))) for s in succeeded]
    searches = [s for s, progs in stages if any(p in SEARCH_TOOLS for p in progs)]
    if not searches or not all(found_nothing(s) for s in searches):
        return False
    return all(found_nothing(s) or (progs and progs[0] in LISTING_TOOLS and not any(p in SEARCH_TOOLS for p in progs))
               for s, progs in stages)
