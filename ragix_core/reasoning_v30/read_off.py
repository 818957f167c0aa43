"""An output that is the answer as printed, so the main path states it without asking the writer.

`wc` given one file prints one line, the count and the file's name (`544 sqlparse/engine/grouping.py`): what a
writer would say, with nothing left to choose. Measured at 40b91a0: 12 paraphrase runs ended on such a line, and the
writer's call for each (about 100 prompt tokens computed and 4 s on one core) answered its number; the sentence made
here passes all 12, and the one AgentBench OS and one own-set run that ended so. One bare number is read off the same
way (computed.printed_number). Only the output's shape is read, never the goal.
"""

from __future__ import annotations

import re
from typing import Optional

from ragix_core.core.types import PlanStep
from ragix_core.evidence.steps import shown_command
from ragix_core.tools.lexer import split_pipeline, stage_program
from ragix_core.tools.refusal import Refusal

from .computed import plural

__all__ = ["wc_line_answer"]

# What `wc` counts, by its one option.
_COUNTS = {"-l": "line", "--lines": "line", "-w": "word", "--words": "word", "-c": "byte", "--bytes": "byte",
           "-m": "character", "--chars": "character"}
_WC_LINE = re.compile(r"\s*(\d+)\s+(\S.*?)\s*")


def wc_line_answer(step: Optional[PlanStep]) -> Optional[str]:
    """"FILE has N lines." when ``step`` ran `wc` with one counting option on one file, as its last stage, and printed
    that file's one line; else None."""
    if step is None or step.result is None or step.tool_call is None:
        return None
    try:
        stages = split_pipeline(shown_command(step))
    except Refusal:
        return None
    last = stages[-1] if stages else []
    if stage_program(last) != "wc":
        return None
    options = [w for w in last[1:] if w.startswith("-") and w != "--"]
    operands = [w for w in last[1:] if not w.startswith("-")]
    if len(options) != 1 or options[0] not in _COUNTS or len(operands) != 1:
        return None
    lines = [ln for ln in (step.result.stdout or "").splitlines() if ln.strip()]
    found = _WC_LINE.fullmatch(lines[0]) if len(lines) == 1 else None
    if found is None or found.group(2) != operands[0]:
        return None
    name = found.group(2).removeprefix("./")
    return f"{name} has {plural(int(found.group(1)), _COUNTS[options[0]])}."
