"""Token budgets and the metered client every model call of the tree goes through.

Each branch has a ``Ledger``: the root's is limited by ``max_global_tokens``, every child
subtree's by ``max_branch_tokens``, and a charge counts in the branch and in all its
ancestors. A call is refused (``BudgetExhausted``) when its branch or any ancestor has
already spent its limit; tokens are known only after a call, so a branch can overshoot
its limit by at most one call's tokens.

``MeteredClient`` wraps a role's client (``llm/roles.TracedClient``, which counts the run's
usage per role and publishes the LLM_CALL events): it checks the budget before a call,
charges the node and its ledger after, passes the per-call timeout, and holds one of
``max_concurrent_branches`` slots for the duration of the call. What it counts is per
node only (the tree's display and its metrics sum the nodes).
"""

from __future__ import annotations

import threading
from typing import Any, Dict, List, Optional

from ragix_core.llm.base import Completion, LLMClient, Message

__all__ = ["Ledger", "BudgetExhausted", "MeteredClient"]


class BudgetExhausted(Exception):
    """A model call was refused because a token budget (global or branch) is spent."""

    def __init__(self, which: str):
        super().__init__(f"{which} token budget spent")
        self.which = which


class Ledger:
    def __init__(self, limit: int, name: str, parent: Optional["Ledger"] = None):
        self.limit = int(limit)
        self.name = name
        self.parent = parent
        self.spent = 0
        self._lock = threading.Lock() if parent is None else parent._lock  # one lock per tree

    def child(self, limit: int, name: str) -> "Ledger":
        return Ledger(limit, name, parent=self)

    def charge(self, tokens: int) -> None:
        with self._lock:
            ledger: Optional[Ledger] = self
            while ledger is not None:
                ledger.spent += int(tokens)
                ledger = ledger.parent

    def exhausted(self) -> Optional[str]:
        """The name of the first ledger (this branch, then its ancestors) whose limit is spent."""
        with self._lock:
            ledger: Optional[Ledger] = self
            while ledger is not None:
                if ledger.spent >= ledger.limit:
                    return ledger.name
                ledger = ledger.parent
        return None


class MeteredClient:
    """An ``LLMClient`` for one node's calls: budget check, per-call timeout, slot, accounting."""

    def __init__(self, inner: LLMClient, node: Any, ledger: Ledger, *, timeout: float,
                 slots: threading.BoundedSemaphore):
        self.inner = inner
        self.node = node
        self.ledger = ledger
        self.timeout = timeout
        self.slots = slots
        self._lock = ledger._lock

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def model(self) -> str:
        return self.inner.model

    def complete(self, messages: List[Message], *, schema: Optional[Dict[str, Any]] = None,
                 max_tokens: Optional[int] = 512, temperature: Optional[float] = 0.0,
                 timeout: Optional[float] = None) -> Completion:
        spent = self.ledger.exhausted()
        if spent:
            raise BudgetExhausted(spent)
        with self._lock:  # a call counts even if it fails (its tokens, unknown then, do not)
            self.node.llm_calls += 1
        with self.slots:
            result = self.inner.complete(messages, schema=schema, max_tokens=max_tokens, temperature=temperature,
                                         timeout=timeout if timeout is not None else self.timeout)
        used = result.usage.total_tokens
        self.ledger.charge(used)
        with self._lock:
            self.node.tokens += used
        return result
