"""An interactive session that keeps context: each question is solved with the earlier
turns (bounded) as reference, so "and the day after?" can follow "What day is 3 March 2025?"."""

from __future__ import annotations

from typing import List, Optional, Tuple

from ragix_core.core.text import bounded
from ragix_core.reasoning_slim.engine import ContractiveReasoner
from ragix_core.reasoning_slim.result import ContractiveResult

__all__ = ["ChatSession"]

CONTEXT_TURNS = 4  # the last turns shown to the model; older ones drop out
TURN_CHARS = 400


class ChatSession:
    def __init__(self, reasoner: ContractiveReasoner):
        self.reasoner = reasoner
        self.turns: List[Tuple[str, str]] = []  # (question, answer)

    def context(self) -> str:
        return "\n".join(f"Q: {bounded(q, TURN_CHARS, marker=False)}\nA: {bounded(a, TURN_CHARS, marker=False)}"
                         for q, a in self.turns[-CONTEXT_TURNS:])

    def ask(self, question: str) -> ContractiveResult:
        result = self.reasoner.solve_sync(question, context=self.context() or None)
        self.turns.append((result.question, result.final_answer))
        return result

    def last(self) -> Optional[Tuple[str, str]]:
        return self.turns[-1] if self.turns else None
