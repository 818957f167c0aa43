"""Roles → clients, with tracing and per-role usage totals.

    roles = Roles(config.llm, bus=bus, session_id=sid)
    planner = roles.get("planner")          # an LLMClient
    reply = planner.complete(messages, schema=PLAN_SCHEMA)
    roles.usage["planner"]                  # running Usage for that role

Two roles that resolve to the same backend+model share one underlying client
(so one model load); each role still gets its own ``TracedClient`` so events and
totals name the role. A role's configured temperature / max_tokens / timeout
apply when the caller does not pass them.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Dict, List, Optional

from ragix_core.core.events import EventBus, EventKind

from .base import Completion, LLMClient, LLMError, Message, Usage
from .config import ROLES, BackendSettings, LLMConfig
from .factory import build_client

__all__ = ["Roles", "TracedClient"]


class TracedClient:
    """Wraps a client: applies a role's defaults, publishes ``LLM_CALL``, adds to usage totals."""

    def __init__(
        self,
        inner: LLMClient,
        role: str,
        settings: Optional[BackendSettings] = None,
        *,
        bus: Optional[EventBus] = None,
        session_id: str = "",
        totals: Optional[Dict[str, Usage]] = None,
        lock: Optional[threading.Lock] = None,
    ) -> None:
        self.inner = inner
        self.role = role
        self.settings = settings
        self.bus = bus
        self.session_id = session_id
        self.totals = totals if totals is not None else {}
        self._lock = lock or threading.Lock()

    @property
    def backend(self) -> str:
        return self.inner.backend

    @property
    def model(self) -> str:
        return self.inner.model

    def complete(
        self,
        messages: List[Message],
        *,
        schema: Optional[Dict[str, Any]] = None,
        max_tokens: Optional[int] = None,
        temperature: Optional[float] = None,
        timeout: Optional[float] = None,
    ) -> Completion:
        s = self.settings
        kwargs = {
            "schema": schema,
            "max_tokens": max_tokens if max_tokens is not None else (s.max_tokens if s else 512),
            "temperature": temperature if temperature is not None else (s.temperature if s else 0.0),
            "timeout": timeout if timeout is not None else (s.timeout if s else None),
        }
        start = time.monotonic()
        try:
            result = self.inner.complete(messages, **kwargs)
        except LLMError as exc:
            self._publish(ok=False, error=f"{type(exc).__name__}: {exc}", usage=Usage(),
                          latency=time.monotonic() - start)
            raise
        with self._lock:
            self.totals[self.role] = self.totals.get(self.role, Usage()) + result.usage
        self._publish(ok=True, error=None, usage=result.usage, latency=result.latency)
        return result

    def _publish(self, *, ok: bool, error: Optional[str], usage: Usage, latency: Optional[float]) -> None:
        if self.bus is None:
            return
        self.bus.publish(
            EventKind.LLM_CALL,
            self.session_id,
            role=self.role,
            backend=self.backend,
            model=self.model,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            latency=latency,
            ok=ok,
            error=error,
        )


class Roles:
    """The clients of one run, by role. Clients are built lazily; models load on first call."""

    def __init__(self, config: Optional[LLMConfig] = None, *, bus: Optional[EventBus] = None,
                 session_id: str = "") -> None:
        self.config = config or LLMConfig()
        self.bus = bus
        self.session_id = session_id
        self.usage: Dict[str, Usage] = {}
        self._shared: Dict[tuple, LLMClient] = {}
        self._roles: Dict[str, TracedClient] = {}
        self._lock = threading.Lock()
        self._usage_lock = threading.Lock()

    def settings(self, role: str) -> BackendSettings:
        return self.config.for_role(role)

    def get(self, role: str) -> TracedClient:
        """The client for ``role`` (planner, worker, verifier, tutor, peer or default)."""
        with self._lock:
            client = self._roles.get(role)
            if client is not None:
                return client
            settings = self.config.for_role(role)  # ValueError naming the valid roles
            key = settings.client_key()
            inner = self._shared.get(key)
            if inner is None:
                inner = build_client(settings)
                self._shared[key] = inner
            client = TracedClient(inner, role, settings, bus=self.bus, session_id=self.session_id,
                                  totals=self.usage, lock=self._usage_lock)
            self._roles[role] = client
            return client

    def total(self) -> Usage:
        with self._usage_lock:
            out = Usage()
            for usage in self.usage.values():
                out = out + usage
            return out

    def describe(self) -> Dict[str, Dict[str, Any]]:
        """role → {backend, model, base_url} without building anything (for doctor/trace headers)."""
        out = {}
        for role in ROLES:
            s = self.config.for_role(role)
            out[role] = {"backend": s.backend, "model": s.model, "base_url": s.base_url}
        return out
