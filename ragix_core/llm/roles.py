"""Roles → clients, with tracing and per-role usage totals.

    roles = Roles(config.llm, bus=bus, session_id=sid)
    planner = roles.get("planner")          # an LLMClient
    reply = planner.complete(messages, schema=PLAN_SCHEMA)
    roles.usage["planner"]                  # running Usage for that role
    roles.summary()                         # {"llm_calls", "prompt_tokens", "completion_tokens", "cached_prompt_tokens"}

Two roles that resolve to the same backend+model share one underlying client
(so one model load); each role still gets its own ``TracedClient`` so events and
totals name the role. A role's configured temperature / max_tokens / timeout
apply when the caller does not pass them.

This is the one place where a run's LLM usage is counted: every call an engine
makes (repairs, failed calls included) goes through a TracedClient. It is also
where a run-wide budget is enforced: ``roles.guard`` (``runtime.budget``), when
set, is asked before every call; it raises a named stop when the budget is spent
and may shorten the call's timeout to the wall time left.
"""

from __future__ import annotations

import threading
import time
from typing import Any, Callable, Dict, List, Optional, Sequence

from ragix_core.core.events import EventBus, EventKind
from ragix_core.core.text import bounded

from .base import Completion, LLMClient, LLMError, Message, Until, Usage, complete_cut
from .config import ROLES, BackendSettings, LLMConfig
from .factory import build_client

__all__ = ["Roles", "TracedClient", "ClientFactory"]

PROMPT_CHARS = 20_000  # per message in a trace with include_prompts
ClientFactory = Callable[[BackendSettings], LLMClient]


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
        calls: Optional[Dict[str, int]] = None,
        lock: Optional[threading.Lock] = None,
        include_prompts: bool = False,
        seeds: Optional[Callable[[], Optional[int]]] = None,
        guard: Optional[Callable[[], Optional[float]]] = None,
    ) -> None:
        self.inner = inner
        self.role = role
        self.settings = settings
        self.bus = bus
        self.session_id = session_id
        self.totals = totals if totals is not None else {}
        self.calls = calls if calls is not None else {}
        self._lock = lock or threading.Lock()
        # traces.include_prompts: the messages (bounded) go into the LLM_CALL event, so a trace
        # shows what the model was asked; off by default (prompts quote file contents).
        self.include_prompts = include_prompts
        self.seeds = seeds  # the run's seed sequence, for calls that do not fix one
        # Asked before every call: raises when the run's budget is spent, else the seconds left (or None).
        self.guard = guard

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
        seed: Optional[int] = None,
        stop: Optional[Sequence[str]] = None,
        until: Optional[Until] = None,
    ) -> Completion:
        s = self.settings
        kwargs = {
            "schema": schema,
            "max_tokens": max_tokens if max_tokens is not None else (s.max_tokens if s else 512),
            "temperature": temperature if temperature is not None else (s.temperature if s else 0.0),
            "timeout": timeout if timeout is not None else (s.timeout if s else None),
        }
        if self.guard is not None:
            left = self.guard()  # a spent budget raises here: the call is refused, not made
            if left is not None:
                kwargs["timeout"] = left if kwargs["timeout"] is None else min(kwargs["timeout"], left)
        if seed is None and self.seeds is not None:
            seed = self.seeds()
        if seed is not None:  # passed only when there is one: a client without seeds keeps working
            kwargs["seed"] = seed
        start = time.monotonic()
        with self._lock:
            self.calls[self.role] = self.calls.get(self.role, 0) + 1
        try:
            result = complete_cut(self.inner, messages, kwargs, stop, until)  # passed, or the text cut here
        except LLMError as exc:
            # A reply the model did write (not JSON, cut at max_tokens) cost its tokens like any other,
            # and is kept where prompts are.
            usage = getattr(exc, "usage", None)
            if usage is not None:  # errors before a reply (timeouts, no server) cost nothing countable
                self._count(usage)
            self._publish(messages, ok=False, error=f"{type(exc).__name__}: {exc}", usage=usage or Usage(),
                          latency=time.monotonic() - start, reply=getattr(exc, "text", None) or None)
            raise
        self._count(result.usage)
        self._publish(messages, ok=True, error=None, usage=result.usage, latency=result.latency, reply=result.text)
        return result

    def _count(self, usage: Usage) -> None:
        with self._lock:
            self.totals[self.role] = self.totals.get(self.role, Usage()) + usage

    def _publish(self, messages: List[Message], *, ok: bool, error: Optional[str], usage: Usage,
                 latency: Optional[float], reply: Optional[str]) -> None:
        if self.bus is None:
            return
        extra: Dict[str, Any] = {}
        if self.include_prompts:
            extra["messages"] = [{"role": m.get("role", ""), "content": bounded(m.get("content", ""), PROMPT_CHARS)}
                                 for m in messages]
            extra["reply"] = bounded(reply, PROMPT_CHARS) if reply is not None else None
        self.bus.publish(
            EventKind.LLM_CALL,
            self.session_id,
            role=self.role,
            backend=self.backend,
            model=self.model,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            cached_tokens=usage.cached_tokens,
            latency=latency,
            ok=ok,
            error=error,
            **extra,
        )


class Roles:
    """The clients of one run, by role. Clients are built lazily; models load on first call."""

    def __init__(self, config: Optional[LLMConfig] = None, *, bus: Optional[EventBus] = None,
                 session_id: str = "", client_factory: Optional[ClientFactory] = None,
                 include_prompts: bool = False, seed: Optional[int] = None) -> None:
        """``client_factory`` builds the client for a role's settings (default: the real backend);
        tests pass one that returns a scripted or replaying client. ``seed``: calls that fix no seed
        get seed, seed + 1, ... in call order, so a run at temperature > 0 can be repeated."""
        self.config = config or LLMConfig()
        self.bus = bus
        self.session_id = session_id
        self.client_factory = client_factory or build_client
        self.include_prompts = include_prompts
        self.usage: Dict[str, Usage] = {}
        self.calls: Dict[str, int] = {}
        self.seed = seed
        # A run-wide budget over every role (runtime.budget.RunBudget.check), set by the engine that owns one.
        self.guard: Optional[Callable[[], Optional[float]]] = None
        self._next_seed = seed
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
                inner = self.client_factory(settings)
                self._shared[key] = inner
            client = TracedClient(inner, role, settings, bus=self.bus, session_id=self.session_id,
                                  totals=self.usage, calls=self.calls, lock=self._usage_lock,
                                  include_prompts=self.include_prompts,
                                  seeds=self._take_seed if self.seed is not None else None,
                                  guard=self._check_guard)
            self._roles[role] = client
            return client

    def _check_guard(self) -> Optional[float]:
        return self.guard() if self.guard is not None else None

    def _take_seed(self) -> Optional[int]:
        with self._usage_lock:
            seed, self._next_seed = self._next_seed, (self._next_seed or 0) + 1
            return seed

    def total(self) -> Usage:
        with self._usage_lock:
            out = Usage()
            for usage in self.usage.values():
                out = out + usage
            return out

    def summary(self) -> Dict[str, int]:
        """The run's usage as reports show it: calls (failed ones included) and tokens."""
        total = self.total()
        with self._usage_lock:
            calls = sum(self.calls.values())
        return {"llm_calls": calls, "prompt_tokens": total.prompt_tokens, "completion_tokens": total.completion_tokens,
                "cached_prompt_tokens": total.cached_tokens}

    def describe(self) -> Dict[str, Dict[str, Any]]:
        """role → {backend, model, base_url} without building anything (for doctor/trace headers)."""
        out = {}
        for role in ROLES:
            s = self.config.for_role(role)
            out[role] = {"backend": s.backend, "model": s.model, "base_url": s.base_url}
        return out
