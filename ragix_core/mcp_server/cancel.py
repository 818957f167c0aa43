"""Cancellation of an engine run from outside its thread.

The engines are synchronous and know nothing of MCP; what every one of them does often is ask
its model. So a cancelled request sets a flag, and the run's model clients raise
``RunCancelled`` at their next call. It is a ``KeyboardInterrupt``: the engines treat it as Ctrl-C,
"stop now" (the chat stores the turn as ``user_abort`` and re-raises; the others end the run as
``user_abort`` with its trace closed, and engines.run_engine turns that back into ``RunCancelled``).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Optional

__all__ = ["RunCancelled", "Cancellation"]


class RunCancelled(KeyboardInterrupt):
    """The MCP client cancelled the request that started this run."""


class _CancellableClient:
    """An LLM client that refuses to start a call once its run is cancelled."""

    def __init__(self, inner: Any, flag: threading.Event) -> None:
        self._inner, self._flag = inner, flag
        self.backend = getattr(inner, "backend", "")
        self.model = getattr(inner, "model", "")

    def complete(self, messages: Any, **kwargs: Any) -> Any:
        if self._flag.is_set():
            raise RunCancelled("the MCP request was cancelled")
        return self._inner.complete(messages, **kwargs)

    def __getattr__(self, name: str) -> Any:  # anything else a backend offers (close, ...)
        return getattr(self._inner, name)


class Cancellation:
    """One request's flag, and the client factory that honours it."""

    def __init__(self, base_factory: Optional[Callable[[Any], Any]] = None) -> None:
        self.flag = threading.Event()
        self._base = base_factory

    def cancel(self) -> None:
        self.flag.set()

    @property
    def cancelled(self) -> bool:
        return self.flag.is_set()

    def client_factory(self, settings: Any) -> Any:
        if self._base is None:
            from ragix_core.llm.factory import build_client

            return _CancellableClient(build_client(settings), self.flag)
        return _CancellableClient(self._base(settings), self.flag)
