"""The worker reads two commands that printed different answers and says which computes the goal.

A short output the cross-check disputes rests, by default, on the greedy command; but the greedy command
is sometimes the wrong pipe and the cross-check the right one: at 1b83865 (paraphrase set, 60 questions)
18 of 27 disputed runs were wrong, 12 of them a named file's lines counted as `find -name FILE | wc -l`
("1") while the cross-check's `wc -l FILE` printed the lines. Sampling cannot settle it (two commands,
one vote each, and cross-check draws are worse commands on average: docs/SAMPLING.md). Reading the two
commands side by side is a different task from writing one, closer to what the model does well (verifying
a short program against a sentence); it is asked in both orders, and the answer changes only when both
readings pick the other command, so a model that always says "1" (or "2") changes nothing. The first reading
shows the current basis first; the second is asked only when the first picked the rival.
"""

from __future__ import annotations

import re
from typing import Optional

from ragix_core import prompts
from ragix_core.core.stop import BudgetSpent, StopRun
from ragix_core.core.text import bounded
from ragix_core.core.types import PlanStep
from ragix_core.evidence.steps import shown_command, step_output
from ragix_core.llm.structured import ask_text

from .attempt import FATAL_STOPS  # the same stops end a run whether a draw or a reading hit them

__all__ = ["judge_request", "ask_judge", "JUDGE_MAX_TOKENS", "OUTPUT_SHOWN"]

JUDGE_MAX_TOKENS = 4  # "1" or "2"; a model that starts explaining is read by its first digit
OUTPUT_SHOWN = 240  # characters of each output shown: a disputed output is short; its rival may not be
_CHOICE = re.compile(r"(?<![\d.])([12])(?!\d|\.\d)")  # a lone 1 or 2: not 12, not 1.5


def judge_request(goal: str, first: PlanStep, second: PlanStep) -> str:
    return prompts.render("command_judge", goal=bounded(goal, 2000),
                          first=shown_command(first), first_output=step_output(first, limit=OUTPUT_SHOWN) or "(nothing)",
                          second=shown_command(second), second_output=step_output(second, limit=OUTPUT_SHOWN) or "(nothing)")


def ask_judge(worker, goal: str, first: PlanStep, second: PlanStep) -> Optional[int]:
    """1 or 2: the command the worker says computes ``goal``; None when its reply names neither (or
    the call failed in a way another call may not: the dispute then stands as it was)."""
    messages = [{"role": "user", "content": judge_request(goal, first, second)}]
    try:
        completion = ask_text(worker, messages, max_tokens=JUDGE_MAX_TOKENS)
    except StopRun as stop:
        if stop.reason in FATAL_STOPS or isinstance(stop, BudgetSpent):
            raise
        return None
    m = _CHOICE.search(completion.text or "")
    return int(m.group(1)) if m else None
