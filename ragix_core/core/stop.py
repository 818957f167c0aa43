"""The one way to end a run early with a named reason."""

from __future__ import annotations

__all__ = ["StopRun", "BudgetSpent"]


class StopRun(Exception):
    """Raised by a node, an engine phase or a function they call (an LLM helper,
    a tool wrapper) to end the run with ``reason`` as its ``stop_reason``.

    Every engine catches it in one place (``ReasoningGraph.run``) and passes once
    through RESPOND, so the user still gets what was found and why it stopped.
    """

    def __init__(self, reason: str, message: str = ""):
        super().__init__(message or reason)
        self.reason = reason
        self.message = message or reason


class BudgetSpent(StopRun):
    """The run's shared budget (model calls, tokens or wall time; ``runtime.budget``) is spent.

    Never one failed try among several: whatever catches a named stop to try again lets this one
    through, since every further model call would be refused the same way."""
