"""One budget for a whole run: model calls, tokens and wall time, shared by every engine in it.

A pattern that runs engines inside one run (the hierarchical master and its workers) spends one budget:

    budget = RunBudget(BudgetLimits(max_calls=40, max_tokens=60_000, max_seconds=900), ctx.roles.summary)
    with budget.installed(ctx.roles):       # every model call of the run is checked first
        ...                                 # a worker simply runs: it gets whatever is left
    budget.spent()                          # the limit that ran out, or None

The check runs before each model call (``Roles.guard``): a spent budget refuses the call with
``BudgetSpent`` (``budget_calls``, ``budget_tokens`` or ``budget_wall``), which the graph ends the run
with, as any named stop; a call that may start gets at most the wall time left as its timeout. Tokens
are known only after a call, so the last allowed call may take the total past ``max_tokens`` by its own
tokens; no further call is made.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any, Callable, Dict, Iterator, Optional

from ragix_core.core.stop import BudgetSpent

__all__ = ["BudgetLimits", "RunBudget", "BUDGET_REASONS"]

BUDGET_REASONS = ("budget_calls", "budget_tokens", "budget_wall")


@dataclass(frozen=True)
class BudgetLimits:
    max_calls: int = 40
    max_tokens: int = 60_000  # prompt + completion, every role
    max_seconds: float = 900.0

    def __post_init__(self) -> None:
        for name in ("max_calls", "max_tokens", "max_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
                raise ValueError(f"budget {name} must be a positive number, got {value!r}")

    @classmethod
    def from_mapping(cls, data: Optional[Dict[str, Any]]) -> "BudgetLimits":
        """From a run's options (``meta``); unknown keys are named, not ignored."""
        data = dict(data or {})
        unknown = sorted(set(data) - {"max_calls", "max_tokens", "max_seconds"})
        if unknown:
            raise ValueError(f"unknown budget option(s) {', '.join(unknown)}; known: max_calls, max_tokens, max_seconds")
        return cls(**data)


class RunBudget:
    """Limits, the run's usage totals (``Roles.summary``) and a clock started at construction."""

    def __init__(self, limits: BudgetLimits, usage: Callable[[], Dict[str, int]],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self._usage = usage
        self._clock = clock
        self._start = clock()

    def used(self) -> Dict[str, Any]:
        u = self._usage()
        return {"llm_calls": u.get("llm_calls", 0),
                "tokens": u.get("prompt_tokens", 0) + u.get("completion_tokens", 0),
                "seconds": round(self._clock() - self._start, 3)}

    def left(self) -> Dict[str, Any]:
        used = self.used()
        return {"llm_calls": max(0, self.limits.max_calls - used["llm_calls"]),
                "tokens": max(0, self.limits.max_tokens - used["tokens"]),
                "seconds": round(max(0.0, self.limits.max_seconds - used["seconds"]), 3)}

    def spent(self) -> Optional[BudgetSpent]:
        """The stop naming the first limit reached, or None while every limit has some left."""
        used, lim = self.used(), self.limits
        if used["llm_calls"] >= lim.max_calls:
            return BudgetSpent("budget_calls", f"the run's budget of {lim.max_calls} model calls is spent")
        if used["tokens"] >= lim.max_tokens:
            return BudgetSpent("budget_tokens", f"the run's budget of {lim.max_tokens} tokens is spent "
                                                f"({used['tokens']} used)")
        if used["seconds"] >= lim.max_seconds:
            return BudgetSpent("budget_wall", f"the run's budget of {lim.max_seconds:g} s is spent")
        return None

    def check(self) -> float:
        """Before a model call: raise the stop when spent, else return the seconds left (its timeout cap)."""
        stop = self.spent()
        if stop is not None:
            raise stop
        return self.left()["seconds"]

    def to_dict(self) -> Dict[str, Any]:
        return {"limits": asdict(self.limits), "used": self.used()}

    @contextmanager
    def installed(self, roles: Any) -> Iterator["RunBudget"]:
        """Check every model call of ``roles`` against this budget while the block runs."""
        previous = roles.guard
        roles.guard = self.check
        try:
            yield self
        finally:
            roles.guard = previous
